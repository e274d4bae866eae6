/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfService;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
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

    private final List<String> calls = new ArrayList<>();
    private final List<Object[]> arguments = new ArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream stdout;
    private PrintStream stderr;

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
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        FlowBufCommand.useServices(type -> type == UpfService.class ? upf
                : type == CodecService.class ? codecs : null);
        stdout = System.out;
        stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @After
    public void tearDown() {
        System.setOut(stdout);
        System.setErr(stderr);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void listAndAddPrintTheSessions() {
        new UpfSessionsListCommand().doExecute();
        assertTrue(out(), out().contains("10.250.0.1") && out().contains("0x1234")
                && out().contains("0xabcd01"));
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
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    public void removeByUeAddressOrId() {
        UpfSessionRemoveCommand remove = new UpfSessionRemoveCommand();
        remove.session = "10.250.0.1";
        remove.doExecute();
        remove.session = "3";
        remove.doExecute();
        assertEquals(List.of("session", "removeSession", "session", "removeSession"), calls);
        assertTrue(out().contains("removed session 3 (UE 10.250.0.1)"));
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
            err.reset();
            UpfSessionAddCommand add = new UpfSessionAddCommand();
            add.deviceId = "device:s1";
            add.ueAddress = b[0];
            add.n3Address = "10.0.0.100";
            add.uplinkTeid = b[1];
            add.gnbAddress = "10.0.0.1";
            add.downlinkTeid = b[2];
            add.ambr = b[3];
            add.doExecute();
            String error = err.toString(StandardCharsets.UTF_8);
            assertTrue(error, error.startsWith("Error: ") && error.contains(b[4]));
        }
        UpfSessionRemoveCommand remove = new UpfSessionRemoveCommand();
        remove.session = "10.250.0.9";
        err.reset();
        remove.doExecute();
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no session of UE 10.250.0.9"));
        assertEquals(List.of("session"), calls);
    }
}
