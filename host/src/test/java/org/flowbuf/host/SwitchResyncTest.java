/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The host's taking back of lost switches: retried until it succeeds, one
 * attempt at a time per device, a loss while one is pending not doubled.
 */
public class SwitchResyncTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");

    @Test
    public void aLostSwitchIsRetriedUntilItIsTakenBack() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        try (SwitchResync resync = new SwitchResync(device -> {
            if (attempts.incrementAndGet() < 3) {
                throw new IllegalStateException("switch not listening yet");
            }
            done.countDown();
        }, Duration.ofMillis(10))) {
            resync.lost(S1);
            assertTrue("taken back", done.await(5, TimeUnit.SECONDS));
            Thread.sleep(50);
            assertEquals("two refused attempts, then one that worked", 3, attempts.get());
            assertFalse(resync.pending(S1));
        }
    }

    @Test
    public void aLossReportedWhilePendingIsTheSameLoss() throws Exception {
        List<DeviceId> taken = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch both = new CountDownLatch(2);
        try (SwitchResync resync = new SwitchResync(device -> {
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            taken.add(device);
            both.countDown();
        }, Duration.ofMillis(10))) {
            resync.lost(S1);
            resync.lost(S2);
            resync.lost(S2);  // queued behind S1, still pending: not a second attempt
            assertTrue(resync.pending(S2));
            release.countDown();
            assertTrue(both.await(5, TimeUnit.SECONDS));
            Thread.sleep(50);
            assertEquals(List.of(S1, S2), taken);
        }
    }
}
