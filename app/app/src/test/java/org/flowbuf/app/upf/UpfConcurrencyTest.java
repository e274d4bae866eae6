/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.app.Race;
import org.flowbuf.app.southbound.StatefulAgent;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * PDU sessions of a few UEs on two devices added and removed from many
 * threads at once: a UE has one session on a device at a time (the others
 * refused, CONFLICT "already has"), no entry is written twice or removed
 * while another session needs it (the device refuses an insert of what it
 * holds), and afterwards each device holds its interfaces only.
 */
public class UpfConcurrencyTest {

    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.app");
    private static final List<DeviceId> DEVICES = List.of(DeviceId.deviceId("device:s1"),
                                                          DeviceId.deviceId("device:s2"));
    private static final Ip4Address N3 = Ip4Address.valueOf("10.0.0.100");
    private static final Ip4Address GNB = Ip4Address.valueOf("10.0.0.1");
    private static final int THREADS = 200;
    private static final int UES = 4;

    private final RecordingUpfWriter device = new RecordingUpfWriter();
    private final UpfManager upf = new UpfManager(APP, new InMemoryUpfStore(), slow(device),
                                                  Set.copyOf(DEVICES)::contains);

    // A writer whose writes take up to half a millisecond, as a switch's, and
    // apply one at a time (the recording writer is not thread-safe).
    private static UpfWriter slow(RecordingUpfWriter device) {
        return new UpfWriter() {
            @Override
            public void write(DeviceId deviceId, UpfWrite write) {
                StatefulAgent.pause(0, 500);
                synchronized (device) {
                    device.write(deviceId, write);
                }
            }

            @Override
            public void rewrite(DeviceId deviceId, UpfWrite write) {
                StatefulAgent.pause(0, 500);
                synchronized (device) {
                    device.rewrite(deviceId, write);
                }
            }
        };
    }

    private static PduSession session(DeviceId d, int ue) {
        return PduSession.builder().deviceId(d).ueAddress(Ip4Address.valueOf("10.250.0." + (ue + 1)))
                .n3Address(N3).uplinkTeid(100 + ue).gnbAddress(GNB).downlinkTeid(1100 + ue)
                .qfi(9).build();
    }

    @Test
    public void sessionsOfFewUesAddedAndRemovedFromManyThreads() {
        for (DeviceId d : DEVICES) {
            upf.addInterface(new UpfInterface(d, UpfInterface.Kind.ACCESS,
                                              Ip4Prefix.valueOf("10.0.0.100/32")));
            upf.addInterface(new UpfInterface(d, UpfInterface.Kind.CORE,
                                              Ip4Prefix.valueOf("10.250.0.0/16")));
        }
        List<Race.Reply> replies = Race.run(THREADS, i -> () -> {
            PduSession added = upf.addSessions(List.of(
                    session(DEVICES.get(i % 2), i / 2 % UES))).get(0);
            return upf.removeSession(added.id());
        });
        int served = 0;
        for (Race.Reply r : replies) {
            if (r.ok()) {
                served++;
            } else if (r.refusal.reason() != FlowBufException.Reason.CONFLICT
                    || !r.refusal.getMessage().contains("already has")) {
                fail("unexpected refusal: " + r);
            }
        }
        assertEquals("sessions left", 0, upf.sessions().size());
        for (DeviceId d : DEVICES) {
            assertEquals(d + " holds its two interface rules only: "
                                 + device.entries.get(d).keySet(), 2, device.count(d));
            assertEquals(d + " meter cells left", Map.of(),
                         device.meters.getOrDefault(d, Map.of()));
        }
        if (served == 0) {
            fail("no session was served");
        }
    }
}
