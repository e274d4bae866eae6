/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfService;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.IpPrefix;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The UPF commands against a recording fake UpfService. */
public class UpfCommandsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final PduSession SESSION = PduSession.builder().id(3).deviceId(S1)
            .ueAddress(Ip4Address.valueOf("10.250.0.1")).n3Address(Ip4Address.valueOf("10.0.0.100"))
            .uplinkTeid(0x1234).gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(0xABCD01)
            .qfi(9).build();

    private static final Buffer HELD = new Buffer(S1, BufferId.bufferId("auto-1"), "org.flowbuf.upf",
                                                  BufferSpec.builder().capacityPackets(100).build(),
                                                  VportId.vportId("vp100"), VportMode.RX, 40);
    private static final FlowBufIntent PAUSED = new FlowBufIntent(
            IntentId.intentId(7), FlowBufIntent.Type.PAUSE, S1, PortNumber.portNumber(2),
            FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.250.0.1/32")).build(), HELD.id(),
            FlowBufIntent.State.INSTALLED, "org.flowbuf.upf", null);

    private final List<String> calls = new ArrayList<>();
    private final List<Object[]> arguments = new ArrayList<>();
    @Rule
    public final ShellOutput shell = new ShellOutput();

    @Before
    public void setUp() {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        UpfService upf = (UpfService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{UpfService.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    arguments.add(args);
                    switch (method.getName()) {
                        case "sessions":
                            return List.of(SESSION);
                        case "addSessions":
                            return List.of(((PduSession) ((List<?>) args[0]).get(0)).toBuilder().id(4).build());
                        case "session":
                            return args.length == 1 ? Optional.of(SESSION).filter(s -> s.id() == (long) args[0])
                                    : Optional.of(SESSION).filter(s -> s.ueAddress().equals(args[1]));
                        case "removeSession":
                            return SESSION;
                        case "interfaces":
                            return List.of(new UpfInterface(S1, UpfInterface.Kind.CORE,
                                                            Ip4Prefix.valueOf("10.250.0.0/16")));
                        case "addInterface":
                            return args[0];
                        case "removeInterface":
                            return null;
                        case "pauseDownlink":
                            return PAUSED;
                        case "resumeDownlink":
                            return HELD.withMode(VportMode.RX_TX);
                        case "deviceSummaries":
                            return List.of(new UpfDeviceSummary(S1, 1200, 3));
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        FlowBufCommand.useServices(type -> type == UpfService.class ? upf
                : type == CodecService.class ? codecs : null);
    }

    @Test
    public void listAndAddPrintTheSessions() {
        new UpfSessionsListCommand().doExecute();
        assertTrue(shell.out(), shell.out().contains("10.250.0.1") && shell.out().contains("0x1234")
                && shell.out().contains("0xabcd01"));
        UpfSessionAddCommand add = new UpfSessionAddCommand();
        add.deviceId = "device:s1";
        add.ueAddress = "10.250.0.2";
        add.n3Address = "10.0.0.100";
        add.uplinkTeid = "0x99";
        add.gnbAddress = "10.0.0.1";
        add.downlinkTeid = "77";
        add.qfi = 5;
        add.ambr = "1000,1500,2000,3000";
        add.doExecute();
        PduSession sent = (PduSession) ((List<?>) arguments.get(1)[0]).get(0);
        assertEquals(0x99, sent.uplinkTeid());
        assertEquals(77, sent.downlinkTeid());
        assertEquals(UpfMeter.of(1000, 1500, 2000, 3000), sent.ambr().get());
        assertEquals("", shell.err());
    }

    @Test
    public void removeByUeAddressOrId() {
        UpfSessionRemoveCommand remove = new UpfSessionRemoveCommand();
        remove.session = "10.250.0.1";
        remove.doExecute();
        remove.session = "3";
        remove.doExecute();
        assertEquals(List.of("session", "removeSession", "session", "removeSession"), calls);
        assertTrue(shell.out().contains("removed session 3 (UE 10.250.0.1)"));
        assertEquals(List.of("10.250.0.1", "3"), new UpfSessionCompleter().choices());
        assertEquals(List.of("device:s1"), new UpfDeviceIdCompleter().choices());
    }

    @Test
    public void badArgumentsPrintOneErrorAndCallNothing() {
        String[][] bad = {
                {"10.250.0.999", "0x12", "5", "1,2,3,4", "ueAddress \"10.250.0.999\" is not an IPv4 address"},
                {"10.250.0.2", "0xzz", "5", "1,2,3,4", "uplinkTeid \"0xzz\" is not a number"},
                {"10.250.0.2", "0", "5", "1,2,3,4", "uplinkTeid must be between 1"},
                {"10.250.0.2", "1", "5", "1,2,3", "is not CIR,CBURST,PIR,PBURST"},
                {"10.250.0.2", "1", "5", "0,2,3,4", "cir must be between 1 and 4294967295"},
        };
        for (String[] b : bad) {
            shell.resetErr();
            UpfSessionAddCommand add = new UpfSessionAddCommand();
            add.deviceId = "device:s1";
            add.ueAddress = b[0];
            add.n3Address = "10.0.0.100";
            add.uplinkTeid = b[1];
            add.gnbAddress = "10.0.0.1";
            add.downlinkTeid = b[2];
            add.ambr = b[3];
            add.doExecute();
            String error = shell.err();
            assertTrue(error, error.startsWith("Error: ") && error.contains(b[4]));
        }
        UpfSessionRemoveCommand remove = new UpfSessionRemoveCommand();
        remove.session = "10.250.0.9";
        shell.resetErr();
        remove.doExecute();
        assertTrue(shell.err().contains("no session of UE 10.250.0.9"));
        assertEquals(List.of("session"), calls);
    }

    @Test
    public void pauseAndResumeAUesDownlinkBySessionOrAddress() {
        UpfPauseCommand pause = new UpfPauseCommand();
        pause.session = "10.250.0.1";
        pause.inPort = "2";
        pause.doExecute();
        UpfResumeCommand resume = new UpfResumeCommand();
        resume.session = "3";
        resume.doExecute();
        assertEquals(List.of("session", "pauseDownlink", "session", "resumeDownlink"), calls);
        assertEquals(List.of(3L, PortNumber.portNumber(2)), List.of(arguments.get(1)));
        assertTrue(shell.out(), shell.out().contains("UE 10.250.0.1: downlink held in auto-1 (intent 7)"));
        assertTrue(shell.out(), shell.out().contains("UE 10.250.0.1: auto-1 replays 40 packets (FORWARDING)"));
        pause.inPort = "x";
        shell.resetErr();
        calls.clear();
        pause.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: "));
        assertEquals(List.of("session"), calls);
    }

    @Test
    public void devicesAndInterfacesAreListedAddedAndRemoved() {
        new UpfDevicesCommand().doExecute();
        assertTrue(shell.out(), shell.out().matches("(?s).*device:s1\\s+1200\\s+3.*"));
        UpfInterfacesCommand list = new UpfInterfacesCommand();
        list.doExecute();
        assertTrue(shell.out(), shell.out().matches("(?s).*device:s1\\s+CORE\\s+10.250.0.0/16.*"));
        UpfInterfacesCommand add = new UpfInterfacesCommand();
        add.deviceId = "device:s1";
        add.kind = "access";
        add.prefix = "10.0.0.100/32";
        add.add = true;
        add.doExecute();
        assertEquals(new UpfInterface(S1, UpfInterface.Kind.ACCESS, Ip4Prefix.valueOf("10.0.0.100/32")),
                     arguments.get(2)[0]);
        add.add = false;
        add.remove = true;
        add.doExecute();
        assertEquals(List.of("deviceSummaries", "interfaces", "addInterface", "removeInterface"), calls);
    }

    @Test
    public void badInterfaceArgumentsPrintOneErrorAndCallNothing() {
        String[][] bad = {
                {"device:s1", "access", "10.0.0.300/32", "bad IPv4 prefix"},
                {"device:s1", "edge", "10.0.0.1/32", "'edge' is not one of [ACCESS, CORE]"},
                {"device:s1", "access", null, "need deviceId, kind and prefix"},
        };
        for (String[] b : bad) {
            shell.resetErr();
            UpfInterfacesCommand add = new UpfInterfacesCommand();
            add.deviceId = b[0];
            add.kind = b[1];
            add.prefix = b[2];
            add.add = true;
            add.doExecute();
            String error = shell.err();
            assertTrue(error, error.startsWith("Error: ") && error.contains(b[3]));
        }
        assertEquals(List.of(), calls);
    }
}
