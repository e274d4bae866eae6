/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbCell;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.gnb.GnbService;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The gNodeB commands against a recording fake GnbService. */
public class GnbCommandsTest {

    private static final DeviceId GNB = DeviceId.deviceId("device:gnb1");
    private static final GnbBearer BEARER = new GnbBearer(
            0xD00001, 1, MacAddress.valueOf("02:00:00:00:0e:01"), 0x1234,
            Ip4Address.valueOf("10.0.0.200"), Ip4Address.valueOf("10.0.0.100"));
    private static final GnbDevice DEVICE = new GnbDevice(GNB, 1, List.of(new GnbCell(1, 2, 100)),
                                                          List.of(BEARER));

    private final List<String> calls = new ArrayList<>();
    private final List<Object[]> arguments = new ArrayList<>();
    @Rule
    public final ShellOutput shell = new ShellOutput();

    @Before
    public void setUp() {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        GnbService gnb = (GnbService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{GnbService.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    arguments.add(args);
                    switch (method.getName()) {
                        case "devices":
                            return List.of(DEVICE);
                        case "device":
                            return Optional.of(DEVICE).filter(d -> d.deviceId().equals(args[0]));
                        case "addBearer":
                            return new GnbDevice(GNB, 1, DEVICE.cells(),
                                                 List.of(BEARER, (GnbBearer) args[1]));
                        case "removeBearer":
                            return BEARER;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        FlowBufCommand.useServices(type -> type == GnbService.class ? gnb
                : type == CodecService.class ? codecs : null);
    }

    @Test
    public void theDevicesAreShownWithCellsAndBearers() {
        new GnbDevicesCommand().doExecute();
        String out = shell.out();
        assertTrue(out, out.contains("device:gnb1: UPF port 1"));
        assertTrue(out, out.contains("cell 1: radio port 2, BaaS port 100"));
        assertTrue(out, out.matches("(?s).*0\\s+0xd00001\\s+1\\s+02:00:00:00:0E:01\\s+0x1234\\s+"
                                            + "10.0.0.200\\s+10.0.0.100.*"));
        GnbDevicesCommand one = new GnbDevicesCommand();
        one.deviceId = "device:s9";
        one.doExecute();
        assertTrue(shell.err(), shell.err().contains("device:s9 is no gNodeB"));
        assertEquals(List.of("device:gnb1"), new GnbDeviceIdCompleter().choices());
        assertEquals(List.of(Long.toString(0xD00001)), new GnbBearerCompleter().choices());
    }

    @Test
    public void addAndRemoveABearer() {
        GnbBearerAddCommand add = add("0xd00002", "1", "02:00:00:00:0e:02");
        add.doExecute();
        assertEquals("", shell.err());
        assertEquals(List.of("addBearer"), calls);
        assertEquals(GNB, arguments.get(0)[0]);
        assertEquals(new GnbBearer(0xD00002, 1, MacAddress.valueOf("02:00:00:00:0e:02"), 0x99,
                                   Ip4Address.valueOf("10.0.0.200"),
                                   Ip4Address.valueOf("10.0.0.100")), arguments.get(0)[1]);
        assertTrue(shell.out(), shell.out().contains("added bearer 0xd00002 to device:gnb1 (SN cell 1)"));
        GnbBearerRemoveCommand remove = new GnbBearerRemoveCommand();
        remove.deviceId = "device:gnb1";
        remove.teid = "0xd00001";
        remove.doExecute();
        assertEquals(List.of(GNB, 0xD00001L), List.of(arguments.get(1)));
        assertTrue(shell.out(), shell.out().contains("removed bearer 0xd00001 (cell 1, UE "
                                                             + "02:00:00:00:0E:01) from device:gnb1"));
    }

    @Test
    public void badArgumentsPrintOneErrorAndCallNothing() {
        String[][] bad = {
                {"0", "1", "02:00:00:00:0e:02", "teid must be between 1"},
                {"0x1ffffffff", "1", "02:00:00:00:0e:02", "teid must be between 1"},
                {"12x", "1", "02:00:00:00:0e:02", "teid \"12x\" is not a number"},
                {"5", "0", "02:00:00:00:0e:02", "cell must be between 1 and 65535"},
                {"5", "1", "02-00-00-00-0e-02", "is not a MAC address"},
                {"5", "1", "02:00:00:00:0e", "is not a MAC address"},
        };
        for (String[] b : bad) {
            shell.resetErr();
            add(b[0], b[1], b[2]).doExecute();
            assertTrue(shell.err(), shell.err().startsWith("Error: ") && shell.err().contains(b[3]));
        }
        GnbBearerRemoveCommand remove = new GnbBearerRemoveCommand();
        remove.deviceId = "device:gnb1";
        remove.teid = "x";
        shell.resetErr();
        remove.doExecute();
        assertTrue(shell.err(), shell.err().contains("teid \"x\" is not a number"));
        assertEquals(List.of(), calls);
    }

    private static GnbBearerAddCommand add(String teid, String cell, String mac) {
        GnbBearerAddCommand add = new GnbBearerAddCommand();
        add.deviceId = "device:gnb1";
        add.teid = teid;
        add.cell = cell;
        add.ueMac = mac;
        add.uplinkTeid = "0x99";
        add.gnbAddress = "10.0.0.200";
        add.upfAddress = "10.0.0.100";
        return add;
    }
}
