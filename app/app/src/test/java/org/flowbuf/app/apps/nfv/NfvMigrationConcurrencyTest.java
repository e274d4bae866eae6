/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.nfv;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.app.Race;
import org.flowbuf.app.southbound.StatefulAgent;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Releases of NFV migrations at once: one migration is released exactly
 * once however many complete and abort it together, and releases of
 * different migrations overlap their intent calls (no manager lock held
 * across them).
 */
public class NfvMigrationConcurrencyTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    private final AtomicInteger resumes = new AtomicInteger();
    private final AtomicInteger resumesInFlight = new AtomicInteger();
    private final AtomicInteger peakResumes = new AtomicInteger();

    private static FlowFilter flow(int i) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32"))
                .ipProto(17).l4DstPort(9000 + i).build();
    }

    // An intent service whose resume takes a while, as the agent and switch calls do.
    private FlowBufIntentService intents(long resumeMicros) {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    boolean pause = method.getName().equals("pause");
                    if (!pause) {
                        peakResumes.accumulateAndGet(resumesInFlight.incrementAndGet(),
                                                     Math::max);
                        StatefulAgent.pause(resumeMicros, resumeMicros);
                        resumesInFlight.decrementAndGet();
                        resumes.incrementAndGet();
                    }
                    return new FlowBufIntent(IntentId.intentId(1), pause
                            ? FlowBufIntent.Type.PAUSE : FlowBufIntent.Type.RESUME, S1,
                                             (PortNumber) args[1], (FlowFilter) args[2],
                                             BufferId.bufferId("auto-1"),
                                             FlowBufIntent.State.INSTALLED,
                                             NfvMigrationService.OWNER, null);
                });
    }

    @Test
    public void aMigrationCompletedAndAbortedByManyAtOnceIsReleasedOnce() {
        NfvMigrationManager manager = new NfvMigrationManager(intents(1000));
        NfvMigration m = manager.begin(S1, PortNumber.portNumber(1), flow(0));
        List<Race.Reply> replies = Race.run(100, i -> () -> i % 2 == 0
                ? manager.complete(m.id(), PortNumber.portNumber(3))
                : manager.abort(m.id(), PortNumber.portNumber(2)));
        List<Race.Reply> released = new ArrayList<>();
        for (Race.Reply r : replies) {
            if (r.ok()) {
                released.add(r);
            } else {
                assertEquals(r.toString(), FlowBufException.Reason.CONFLICT, r.refusal.reason());
                assertTrue(r.toString(), r.refusal.getMessage().contains("not HOLDING"));
            }
        }
        assertEquals("released once: " + released, 1, released.size());
        assertEquals("one resume", 1, resumes.get());
        NfvMigration done = (NfvMigration) released.get(0).value;
        assertEquals(done, manager.migrations().iterator().next());
    }

    @Test
    public void releasesOfDifferentMigrationsOverlapTheirIntentCalls() {
        NfvMigrationManager manager = new NfvMigrationManager(intents(50_000));
        List<NfvMigration> begun = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            begun.add(manager.begin(S1, PortNumber.portNumber(1), flow(i)));
        }
        List<Race.Reply> replies = Race.run(16, i -> () -> manager.complete(
                begun.get(i).id(), PortNumber.portNumber(3)));
        replies.forEach(r -> assertTrue("refused: " + r, r.ok()));
        assertEquals(16, resumes.get());
        // Serialized, one 50 ms resume would end before the next began.
        // (Counted, not timed: on a loaded machine the wall time says little.)
        assertTrue("16 releases of different migrations never overlapped their resumes",
                   peakResumes.get() >= 2);
    }
}
