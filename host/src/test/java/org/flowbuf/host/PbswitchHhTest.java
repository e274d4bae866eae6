/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeChannels;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.HhP4Names;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.DigestEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The host's heavy-hitter wiring on a real pbswitch (bin/pbswitch),
 * read back over P4Runtime: the settings become hh_settings' default
 * action (threshold 0 while off), the digest is subscribed, and new
 * settings reach the switch. Loopback only; no ports, no root.
 */
public class PbswitchHhTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:hh");
    private static final long P4_DEVICE_ID = 1;

    private PbswitchProcess pbswitch;
    private ManagedChannel channel;
    private SwitchSession session;
    private P4InfoIndex p4info;
    private HhWiring wiring;

    @Before
    public void startPbswitch() throws Exception {
        pbswitch = PbswitchProcess.start();
        p4info = P4InfoIndex.read(PbswitchProcess.P4INFO);
        channel = P4RuntimeChannels.plaintext("127.0.0.1", pbswitch.port());
        P4RuntimeClient client = new P4RuntimeClient(channel, P4_DEVICE_ID, 10,
                                                     Duration.ofSeconds(5));
        session = new SwitchSession(DEVICE, channel, client, p4info);
        assertTrue(session.start(ByteString.copyFrom(Files.readAllBytes(PbswitchProcess.BMV2_JSON)),
                                 Duration.ofSeconds(5)));
    }

    @After
    public void stopPbswitch() throws Exception {
        if (wiring != null) {
            wiring.close();
        }
        if (session != null) {
            session.close();
        }
        if (pbswitch != null) {
            pbswitch.close();
        }
    }

    private List<Entity> read(Entity wildcard) {
        Iterator<ReadResponse> answers = P4RuntimeGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .read(ReadRequest.newBuilder().setDeviceId(P4_DEVICE_ID).addEntities(wildcard)
                              .build());
        List<Entity> entities = new ArrayList<>();
        answers.forEachRemaining(r -> entities.addAll(r.getEntitiesList()));
        return entities;
    }

    /** hh_settings' default action as the switch has it: [threshold, idle_us]. */
    private List<Long> settingsOnTheSwitch() {
        int table = p4info.table(HhP4Names.SETTINGS.id()).getPreamble().getId();
        List<Entity> found = read(Entity.newBuilder().setTableEntry(
                TableEntry.newBuilder().setTableId(table).setIsDefaultAction(true)).build());
        assertEquals(1, found.size());
        Action action = found.get(0).getTableEntry().getAction().getAction();
        assertEquals(p4info.action(HhP4Names.SET_HH.id()).getPreamble().getId(),
                     action.getActionId());
        List<Long> values = new ArrayList<>();
        action.getParamsList().forEach(p -> values.add(new BigInteger(1, p.getValue()
                .toByteArray()).longValue()));
        return values;
    }

    @Test
    public void theSettingsAndTheDigestReachTheSwitch() {
        wiring = new HhWiring(new DefaultApplicationId(1, "org.flowbuf.app"),
                              HeavyHitterSettings.defaults(), Map.of(DEVICE, session), p4info);
        assertEquals("off: threshold 0", List.of(0L, 1_000_000L), settingsOnTheSwitch());
        int digest = p4info.digestId(HhP4Names.DIGEST);
        List<Entity> subscribed = read(Entity.newBuilder().setDigestEntry(
                DigestEntry.newBuilder().setDigestId(digest)).build());
        assertEquals(1, subscribed.size());

        wiring.manager().configure(HeavyHitterSettings.of(true, 10_000_000, 1250, 500));
        assertEquals(List.of(8000L, 500_000L), settingsOnTheSwitch());
        // Prepared again (a switch that came back): the same, no ALREADY_EXISTS.
        wiring.prepare(session);
        assertEquals(List.of(8000L, 500_000L), settingsOnTheSwitch());
    }

    @Test
    public void aSwitchThatIsGoneMakesConfigureUnavailable() throws Exception {
        wiring = new HhWiring(new DefaultApplicationId(1, "org.flowbuf.app"),
                              HeavyHitterSettings.defaults(), Map.of(DEVICE, session), p4info);
        pbswitch.kill();
        HeavyHitterSettings next = HeavyHitterSettings.of(true, 10_000_000, 1250, 500);
        try {
            wiring.manager().configure(next);
            fail("configured without a switch");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains(DEVICE.toString()));
        }
        // Kept: the switch takes them when it comes back.
        assertEquals(next, wiring.manager().settings());
    }
}
