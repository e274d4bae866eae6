/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.cc;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.app.Race;
import org.flowbuf.app.ServiceStack;
import org.junit.Test;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.PortNumber;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.flowbuf.app.ServiceStack.S1;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * Connectionless uploads from many threads on a few flows, on the real
 * Buffer Service and intent manager (stateful agent and switch): one open
 * upload per flow, each step of an upload taken once and in order, every
 * reply one the request could get alone, and afterwards the switch holds
 * the installed intents' rules and the store what the agent holds.
 */
public class ConnectionlessConcurrencyTest {

    private static final int THREADS = 200;
    private static final int FLOWS = 4;
    private static final PortNumber SENSOR = PortNumber.portNumber(1);
    private static final PortNumber COLLECTOR = PortNumber.portNumber(2);

    private final ServiceStack stack = new ServiceStack(8);
    private final ConnectionlessManager cc = new ConnectionlessManager(stack.intents,
                                                                       stack.buffers);

    private static FlowFilter flow(int i) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf("10.0.0.2/32")).ipProto(17)
                .l4DstPort(7000 + i).build();
    }

    @Test
    public void requestsOfOneFlowOpenOneUpload() {
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> cc.requestUpload(
                S1, SENSOR, flow(i % FLOWS)));
        int opened = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                opened++;
            } else {
                expect(r, FlowBufException.Reason.CONFLICT, "already has upload");
            }
        }
        assertEquals("uploads opened: one per flow", FLOWS, opened);
        for (int f = 0; f < FLOWS; f++) {
            FlowFilter wanted = flow(f);
            assertEquals("uploads of flow " + f, 1, cc.uploads().stream()
                    .filter(u -> u.flow().equals(wanted)).count());
        }
        assertEquals("one installed pause per flow", FLOWS, stack.installedIntents());
        stack.assertConsistent();
    }

    @Test
    public void stepsOfOneUploadFromManyThreadsRunOnceInOrder() {
        stack.agent.everyBufferHolds(10);  // the sensors uploaded something
        List<CcUpload> open = new ArrayList<>();
        for (int f = 0; f < FLOWS; f++) {
            open.add(cc.requestUpload(S1, SENSOR, flow(f)));
        }
        // Every thread walks its upload through stored, download and
        // release, stopping at the first step another thread took first.
        Map<String, Integer> done = new ConcurrentHashMap<>();
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            long id = open.get(i % FLOWS).id();
            cc.stored(id);
            done.merge(id + " stored", 1, Integer::sum);
            cc.download(id, COLLECTOR);
            done.merge(id + " download", 1, Integer::sum);
            CcUpload after = cc.release(id);
            done.merge(id + " release", 1, Integer::sum);
            return after;
        });
        for (Race.Reply r : replies) {
            if (!r.ok()) {
                // Another thread took the step first: "upload N is S, not T".
                expect(r, FlowBufException.Reason.CONFLICT, ", not ");
            }
        }
        for (CcUpload u : open) {
            assertEquals("releases of upload " + u.id() + ": " + done, 1,
                         (int) done.getOrDefault(u.id() + " release", 0));
            assertEquals("stored once: " + done, 1,
                         (int) done.getOrDefault(u.id() + " stored", 0));
            assertEquals("downloaded once: " + done, 1,
                         (int) done.getOrDefault(u.id() + " download", 0));
            CcUpload now = cc.uploads().stream().filter(x -> x.id() == u.id()).findFirst()
                    .orElseThrow();
            assertEquals(CcUpload.State.RELEASED, now.state());
        }
        assertEquals("nothing installed after every release", 0, stack.installedIntents());
        assertEquals("no buffer left", 0, stack.store.buffers(S1).size());
        stack.assertConsistent();
    }

    private static void expect(Race.Reply r, FlowBufException.Reason reason, String text) {
        if (r.refusal.reason() != reason || !r.refusal.getMessage().contains(text)) {
            fail("unexpected refusal: " + r);
        }
    }
}
