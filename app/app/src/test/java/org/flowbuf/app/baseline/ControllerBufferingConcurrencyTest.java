/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.baseline;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.ControllerHold;
import org.flowbuf.app.Race;
import org.flowbuf.app.intent.StatefulSwitch;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Controller holds of a few flows taken and released from many threads at
 * once: one hold of a flow at a time (the others refused, CONFLICT
 * "already held"), each released once, and afterwards no punt rule left on
 * the switch (a stateful switch refuses a rule written twice).
 */
public class ControllerBufferingConcurrencyTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final PortNumber IN = PortNumber.portNumber(1);
    private static final ConnectPoint OUT = ConnectPoint.deviceConnectPoint("device:s1/2");
    private static final int THREADS = 200;
    private static final int FLOWS = 4;
    private static final int ROUNDS = 10;

    private final StatefulSwitch table = new StatefulSwitch(500, 0);
    private final ControllerBufferingManager baseline =
            new ControllerBufferingManager(table, (device, port, frame) -> { });

    private static FlowFilter flow(int i) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17)
                .l4DstPort(6000 + i).build();
    }

    @Test
    public void holdsOfFewFlowsTakenAndReleasedFromManyThreads() {
        // Each thread holds and releases its flow over and over; a hold
        // another thread has taken is refused and the thread goes on.
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            int released = 0;
            for (int round = 0; round < ROUNDS; round++) {
                ControllerHold hold;
                try {
                    hold = baseline.hold(S1, IN, flow(i % FLOWS));
                } catch (FlowBufException refused) {
                    expectHeld(refused);
                    continue;
                }
                ControllerHold done = baseline.release(hold.id(), OUT);
                assertEquals(done.toString(), ControllerHold.State.RELEASED, done.state());
                released++;
            }
            return released;
        });
        int released = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                released += (Integer) r.value;
            } else if (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("already held")) {
                fail("unexpected refusal: " + r);
            }
        }
        assertTrue("nothing was held", released > 0);
        baseline.holds().forEach(h -> assertEquals(h.toString(), ControllerHold.State.RELEASED,
                                                   h.state()));
        assertEquals("punt rules left", Set.of(), table.rules());
    }

    private static void expectHeld(FlowBufException refused) {
        if (refused.reason() != FlowBufException.Reason.CONFLICT
                || !refused.getMessage().contains("already held")) {
            fail("unexpected refusal: " + refused.reason() + " " + refused.getMessage());
        }
    }
}
