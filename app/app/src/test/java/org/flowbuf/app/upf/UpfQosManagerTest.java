/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.UpfQosPolicyCodec;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfFilter;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** UPF-QoS: the DC class through a real UPF manager, reroutes through a recording writer. */
public class UpfQosManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final long HB_PORT = 3;

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        private Instant now = Instant.parse("2026-11-29T00:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(long ms) {
            now = now.plusMillis(ms);
        }
    }

    /** Records installed steering entries; refuses when told to. */
    private static final class Rules implements SteeringRuleWriter {
        private final List<SteeringRule> installed = new ArrayList<>();
        private int writes;
        private boolean refuse;

        @Override
        public void install(DeviceId deviceId, SteeringRule rule) {
            writes++;
            if (refuse) {
                throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, "switch away");
            }
            installed.add(rule);
        }

        @Override
        public void modify(DeviceId deviceId, SteeringRule rule) {
            throw new AssertionError("a reroute is never modified");
        }

        @Override
        public void remove(DeviceId deviceId, SteeringRule rule) {
            writes++;
            if (!installed.remove(rule)) {
                throw FlowBufException.notFound("no such rule");
            }
        }
    }

    private final TestClock clock = new TestClock();
    private final Rules rules = new Rules();
    private final Map<SteeringRule, Long> counters = new HashMap<>();
    private UpfManager upf;
    private UpfQosManager qos;

    @Before
    public void setUp() {
        upf = new UpfManager(new DefaultApplicationId(1, "org.flowbuf.app"), new InMemoryUpfStore(),
                             new RecordingUpfWriter(), Set.of(S1, S2)::contains);
        upf.addInterface(new UpfInterface(S1, UpfInterface.Kind.CORE,
                                          Ip4Prefix.valueOf("10.250.0.0/16")));
        qos = new UpfQosManager(upf, rules, (d, r) -> {
            Long bytes = counters.get(r);
            if (bytes == null) {
                throw FlowBufException.notFound("no entry");
            }
            return bytes;
        }, Set.of(S1, S2)::contains, clock);
    }

    private static UpfQosPolicy policy(DeviceId device, int qfi, Long port) {
        UpfFilter dc = UpfFilter.builder().ueAddress(Ip4Prefix.valueOf("10.250.1.0/24"))
                .ipProto(17).build();
        return new UpfQosPolicy(new UpfApplication(device, 1, 10, dc, qfi, null), 7, port, 1000);
    }

    private static HeavyHitter hh(DeviceId device, String ue, int proto) {
        return new HeavyHitter(device, Ip4Address.valueOf(ue), Ip4Address.valueOf("10.0.0.2"),
                               proto, 4000, 8080, 4000, 17, Instant.EPOCH);
    }

    private void assertRefused(Runnable change, FlowBufException.Reason reason, String message) {
        List<Object> before = List.of(List.copyOf(upf.applications()), List.copyOf(upf.queues()),
                                      List.copyOf(qos.policies()));
        try {
            change.run();
            fail("accepted; wanted " + message);
        } catch (FlowBufException e) {
            assertEquals(e.getMessage(), reason, e.reason());
            assertTrue(e.getMessage() + " should say " + message, e.getMessage().contains(message));
        }
        assertEquals("nothing changed", before, List.of(List.copyOf(upf.applications()),
                                                        List.copyOf(upf.queues()),
                                                        List.copyOf(qos.policies())));
    }

    @Test
    public void aPolicyInstallsItsDcClassAndQueueAndItsRemovalTakesThemBack() {
        UpfQosPolicy p = qos.setPolicy(policy(S1, 9, HB_PORT));
        assertEquals(List.of(p.dcClass()), List.copyOf(upf.applications()));
        assertEquals(List.of(new UpfQueue(S1, 9, 7)), List.copyOf(upf.queues()));
        assertEquals(Optional.of(p), qos.policy(S1));
        assertEquals(p, qos.removePolicy(S1));
        assertTrue(upf.applications().isEmpty() && upf.queues().isEmpty()
                           && qos.policies().isEmpty());
    }

    @Test
    public void badPoliciesAreRefusedAndChangeNothing() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        upf.setQueue(new UpfQueue(S2, 5, 1));
        assertRefused(() -> qos.setPolicy(policy(DeviceId.deviceId("device:x"), 9, HB_PORT)),
                      FlowBufException.Reason.NOT_FOUND, "unknown device");
        assertRefused(() -> qos.setPolicy(policy(S1, 10, HB_PORT)),
                      FlowBufException.Reason.CONFLICT, "remove it first");
        assertRefused(() -> qos.setPolicy(policy(S2, 5, HB_PORT)),
                      FlowBufException.Reason.CONFLICT, "already has queue 1");
        assertRefused(() -> qos.removePolicy(S2), FlowBufException.Reason.NOT_FOUND,
                      "no UPF-QoS policy");
    }

    @Test
    public void policyValuesAreChecked() {
        UpfApplication dc = policy(S1, 9, HB_PORT).dcClass();
        for (long port : new long[]{0, 512}) {
            assertInvalid(() -> new UpfQosPolicy(dc, 7, port, 1000), "highBandwidthPort must be");
        }
        assertInvalid(() -> new UpfQosPolicy(dc, 7, HB_PORT, 0), "idleMs must be");
        assertInvalid(() -> new UpfQosPolicy(dc, 8, HB_PORT, 1000), "queue must be");
        UpfApplication metered = new UpfApplication(S1, 1, 10, dc.filter(), 9,
                                                    UpfMeter.of(1000, 1500, 2000, 3000));
        assertInvalid(() -> new UpfQosPolicy(metered, 7, HB_PORT, 1000), "takes no meter");
    }

    private static void assertInvalid(Runnable make, String message) {
        try {
            make.run();
            fail("accepted; wanted " + message);
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains(message));
        }
    }

    @Test
    public void aDcHeavyHitterIsReroutedWithOneWriteOnce() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        assertEquals(1, rules.writes);
        SteeringRule rule = rules.installed.get(0);
        assertEquals(Optional.of(IpPrefix.valueOf("10.250.1.7/32")), rule.filter().ipv4Dst());
        assertEquals(HB_PORT, rule.outPort());
        assertEquals(1, qos.reroutes().size());
        assertEquals(Ip4Address.valueOf("10.250.1.7"), qos.reroutes().get(0).ueAddress());
    }

    @Test
    public void heavyHittersOutsideTheDcClassOrAReroutingPolicyStay() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        qos.heavyHitter(hh(S1, "10.250.2.7", 17));   // another UE prefix
        qos.heavyHitter(hh(S1, "10.250.1.7", 6));    // another protocol
        qos.heavyHitter(hh(S2, "10.250.1.7", 17));   // a device without a policy
        qos.removePolicy(S1);
        qos.setPolicy(policy(S1, 9, null));          // no high-bandwidth port
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        assertEquals(0, rules.writes);
        assertTrue(qos.reroutes().isEmpty());
    }

    @Test
    public void aRefusedRerouteIsNotListedAndTheNextReportTriesAgain() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        rules.refuse = true;
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        assertTrue(qos.reroutes().isEmpty());
        rules.refuse = false;
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        assertEquals(1, qos.reroutes().size());
    }

    @Test
    public void aRerouteIsUndoneOnlyAfterItsCounterStoodStillForTheIdleTime() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        SteeringRule rule = rules.installed.get(0);
        counters.put(rule, 1500L);
        for (int i = 0; i < 5; i++) {       // moving: kept, however long
            clock.advance(900);
            counters.put(rule, counters.get(rule) + 1500);
            qos.sweepIdle();
        }
        assertEquals(9000L, qos.reroutes().get(0).bytes());
        clock.advance(999);
        qos.sweepIdle();
        assertEquals(1, qos.reroutes().size());
        clock.advance(1);
        qos.sweepIdle();
        assertTrue(qos.reroutes().isEmpty() && rules.installed.isEmpty());
        // Heavy again later: rerouted again.
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        assertEquals(1, rules.installed.size());
    }

    @Test
    public void anUnreadableCounterKeepsTheRerouteAndRemovingThePolicyUndoesIt() {
        qos.setPolicy(policy(S1, 9, HB_PORT));
        qos.heavyHitter(hh(S1, "10.250.1.7", 17));
        clock.advance(Duration.ofHours(1).toMillis());
        qos.sweepIdle();                    // no counter: not read, not undone
        assertEquals(1, qos.reroutes().size());
        qos.removePolicy(S1);
        assertTrue(qos.reroutes().isEmpty() && rules.installed.isEmpty());
    }

    @Test
    public void theCodecTakesDefaultsAndRefusesUnknownFields() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode body = (ObjectNode) json.readTree(
                "{\"deviceId\": \"device:s1\", \"appId\": 1, \"qfi\": 9,"
                        + " \"filter\": {\"ueAddress\": \"10.250.1.0/24\"}}");
        UpfQosPolicy p = UpfQosPolicyCodec.parse(body);
        assertEquals(7, p.dcQueue().queue());
        assertEquals(Optional.empty(), p.highBandwidthPort());
        assertEquals(Duration.ofMillis(1000), p.idle());
        body.put("bogus", 1);
        assertInvalid(() -> UpfQosPolicyCodec.parse(body), "bogus");
    }
}
