/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * An FMM session's plan checked against the network before its first step:
 * every device and port it names, and an agent at every cell; the refusal
 * names the plan's field.
 */
public class PlanCheckTest {

    private static final Set<String> DEVICES = Set.of("device:sa", "device:s1", "device:s2");

    /** The lab's network: the anchor and both eNBs, with ports 1 to 3. */
    private static final PlanCheck.Network NETWORK = new PlanCheck.Network() {
        @Override
        public boolean hasDevice(DeviceId device) {
            return DEVICES.contains(device.toString());
        }

        @Override
        public boolean hasPort(ConnectPoint port) {
            return port.port().toLong() >= 1 && port.port().toLong() <= 3;
        }
    };

    private static ConnectPoint cp(String text) {
        return ConnectPoint.deviceConnectPoint(text);
    }

    private static FmmPlan plan(String secondEnb, int secondUePort) {
        return new FmmPlan(FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.10/32")).build(),
                           cp("device:sa/1"), List.of(
                new FmmPlan.Cell(cp("device:sa/2"), cp("device:s1/1"), cp("device:s1/2")),
                new FmmPlan.Cell(cp("device:sa/3"), cp(secondEnb + "/1"),
                                 cp(secondEnb + "/" + secondUePort))),
                           DeviceId.deviceId("device:s1"), 64);
    }

    private static String refusal(PlanCheck check, FmmPlan plan) {
        try {
            check.check(plan);
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
            return e.getMessage();
        }
        fail("the plan was taken: " + plan);
        return null;
    }

    @Test
    public void anFmmPlanNamingAnUnknownDevicePortOrAgentlessCellIsRefused() {
        PlanCheck check = new PlanCheck(NETWORK, () -> Set.of(DeviceId.deviceId("device:s1"),
                                                              DeviceId.deviceId("device:s2")));
        check.check(plan("device:s2", 2));
        assertEquals("cells[1].in: unknown device device:s9", refusal(check, plan("device:s9", 2)));
        assertEquals("cells[1].ue: device:s2 has no port 99", refusal(check, plan("device:s2", 99)));
        PlanCheck oneAgent = new PlanCheck(NETWORK, () -> Set.of(DeviceId.deviceId("device:s1")));
        assertEquals("device:s2 has no buffer agent: every cell of an FMM session holds a window",
                     refusal(oneAgent, plan("device:s2", 2)));
    }
}
