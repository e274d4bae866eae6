/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The congestion commands against a recording fake CongestionService. */
public class CongestionCommandsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId S3 = DeviceId.deviceId("device:s3");
    private static final DeviceId S4 = DeviceId.deviceId("device:s4");
    private static final CcFlowRequest REQUEST = CcFlowRequest.builder().hosts("h1", "h2")
            .budgetUs(20_000).m(5).filter(FlowFilter.builder()
                    .ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17).l4DstPort(5000)
                    .build()).build();
    private static final LatencyCriticalFlow FLOW = new LatencyCriticalFlow(
            3, 0, REQUEST, path(S1, 2, S2, 2, S4, 1), path(S1, 3, S3, 2, S4, 1), Map.of(),
            List.of(new SwitchOver(S1, 1500, 20, Instant.EPOCH, true)));

    private final List<String> calls = new ArrayList<>();
    private final List<Object> arguments = new ArrayList<>();
    @Rule
    public final ShellOutput shell = new ShellOutput();

    private static CcPath path(DeviceId a, long pa, DeviceId b, long pb, DeviceId c, long pc) {
        return new CcPath(List.of(new CcHop(a, PortNumber.portNumber(pa)),
                                  new CcHop(b, PortNumber.portNumber(pb)),
                                  new CcHop(c, PortNumber.portNumber(pc))));
    }

    @Before
    public void setUp() {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        CongestionService cc = (CongestionService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{CongestionService.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    arguments.add(args == null ? null : args[0]);
                    switch (method.getName()) {
                        case "flows":
                            return List.of(FLOW);
                        case "flow":
                            return Optional.of(FLOW).filter(f -> f.id() == (long) args[0]);
                        case "register":
                            return FLOW;
                        case "remove":
                            if ((long) args[0] != FLOW.id()) {
                                throw FlowBufException.notFound("no latency-critical flow %d",
                                                                args[0]);
                            }
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        FlowBufCommand.useServices(type -> type == CongestionService.class ? cc
                : type == CodecService.class ? codecs : null);
    }

    @Test
    public void theFlowsAreListedWithTheirPathsAndSwitchOvers() {
        new CongestionFlowsCommand().doExecute();
        String[] lines = shell.out().split("\n");
        assertTrue(lines[0], lines[0].startsWith("id   mode      primary"));
        assertTrue(lines[1], lines[1].startsWith("3    DATAPLANE device:s1/2 > device:s2/2 > "
                + "device:s4/1"));
        assertTrue(lines[1], lines[1].contains("device:s1/3 > device:s3/2 > device:s4/1"));
        assertEquals(List.of("3"), new CongestionFlowIdCompleter().choices());
    }

    @Test
    public void oneFlowShowsItsLastSwitchOver() {
        CongestionFlowCommand show = new CongestionFlowCommand();
        show.id = "3";
        show.doExecute();
        assertTrue(shell.out(), shell.out().contains("last switch-over at device:s1 (DIGEST): queue 1500 us, "
                + "processing 20 us"));
        show.id = "4";
        show.doExecute();
        assertTrue(shell.err(), shell.err().contains("Error: no latency-critical flow 4"));
    }

    /** h1 to h2, the flow to 10.0.0.2, a 20 ms budget: the rest as each test sets it. */
    private static CongestionRegisterCommand registerH1ToH2() {
        CongestionRegisterCommand register = new CongestionRegisterCommand();
        register.srcHost = "h1";
        register.dstHost = "h2";
        register.budgetUs = 20_000;
        register.dst = "10.0.0.2";
        return register;
    }

    @Test
    public void registeringSendsTheRequestAsTheRestApiWould() {
        CongestionRegisterCommand register = registerH1ToH2();
        register.proto = 17;
        register.dport = 5000;
        register.m = 5;
        register.mode = "Probing";
        register.probeIntervalMs = 500L;
        register.doExecute();
        assertEquals("", shell.err());
        assertEquals(List.of("register"), calls);
        CcFlowRequest sent = (CcFlowRequest) arguments.get(0);
        assertEquals(CongestionMode.PROBING, sent.mode());
        assertEquals(500L, sent.probeIntervalMs());
        assertEquals(REQUEST.filter(), sent.filter());
        assertTrue(shell.out(), shell.out().contains("DATAPLANE"));
    }

    @Test
    public void badArgumentsPrintOneErrorAndCallNothing() {
        CongestionRegisterCommand register = registerH1ToH2();
        register.mode = "fast";
        register.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: --mode: 'fast' is not one of"));
        shell.resetErr();
        register.mode = "dataplane";
        register.m = 0;
        register.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: \"m\" must be 1.."));
        shell.resetErr();
        register.m = 1;
        register.dst = null;
        register.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: no flow named"));
        shell.resetErr();
        CongestionRemoveCommand remove = new CongestionRemoveCommand();
        remove.id = "x";
        remove.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: bad latency-critical flow id 'x'"));
        assertEquals(List.of(), calls);
    }

    @Test
    public void removingSaysWhatWentOrWhyNot() {
        CongestionRemoveCommand remove = new CongestionRemoveCommand();
        remove.id = "3";
        remove.doExecute();
        assertTrue(shell.out(), shell.out().contains("removed latency-critical flow 3"));
        remove.id = "9";
        remove.doExecute();
        assertTrue(shell.err(), shell.err().contains("Error: no latency-critical flow 9"));
    }
}
