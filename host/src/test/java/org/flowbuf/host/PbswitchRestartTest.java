/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import org.flowbuf.host.p4rt.SwitchSession;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A session with a real pbswitch (bin/pbswitch) that is killed (-9) and
 * started again on the same address: the session says it lost the switch,
 * and starting it again makes the host primary of the new process and
 * pushes the pipeline it lost. Loopback only; no root.
 */
public class PbswitchRestartTest {

    private static final Duration TIMEOUT = PbswitchSession.TIMEOUT;

    @Rule
    public final PbswitchSession pbswitch = new PbswitchSession(DeviceId.deviceId("device:s1"));

    @Test
    public void aRestartedSwitchIsReportedAndTakenBack() throws Exception {
        SwitchSession session = pbswitch.open().session();
        ByteString config = PbswitchSession.pipeline();
        Semaphore lost = new Semaphore(0);
        session.onDisconnect(lost::release);
        assertTrue("a fresh switch gets the pipeline", session.start(config, TIMEOUT));
        assertFalse("taken again while it runs: its pipeline (and tables) kept",
                    session.start(config, TIMEOUT));
        assertEquals("replacing its own stream is no loss", 0, lost.availablePermits());

        pbswitch.pbswitch().kill();
        assertTrue("the session says it lost the switch", lost.tryAcquire(10, TimeUnit.SECONDS));
        pbswitch.pbswitch().restart();
        assertTrue("the restarted switch lost its pipeline: pushed again",
                   session.start(config, TIMEOUT));
        assertEquals("one kill, one loss", 0, lost.availablePermits());
    }
}
