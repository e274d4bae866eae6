/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.app.upf.HeavyHitterManager;
import org.flowbuf.app.upf.HhRules;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.SwitchSession;
import org.flowbuf.pipeconf.HhP4Names;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.DigestEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Update;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Heavy-hitter detection in the embedded host: each switch gets the
 * detector's settings (hh_settings' default action) and the digest
 * subscription, again when it comes back; its reports go to the manager
 * on the stream's thread, as they come (a hand-off to another thread cost
 * a wake-up, milliseconds on a loaded machine, before every promotion):
 * the manager's listeners must not block, so those that write to switches
 * (the placement's promoters, UPF-QoS's reroutes) hand the report to a
 * thread of their own.
 */
final class HhWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HhWiring.class);

    /** Each report at once, alone: the controller promotes the UE as soon as it can. */
    private static final DigestEntry.Config DIGEST_CONFIG = DigestEntry.Config.newBuilder()
            .setMaxTimeoutNs(0).setMaxListSize(1).setAckTimeoutNs(1_000_000_000L).build();

    private final Map<DeviceId, SwitchSession> switches;
    private final P4InfoIndex p4info;
    private final HhRules rules;
    private final HeavyHitterManager manager;
    private final Clock clock = Clock.systemUTC();

    HhWiring(ApplicationId appId, HeavyHitterSettings initial,
             Map<DeviceId, SwitchSession> switches, P4InfoIndex p4info) {
        this.switches = switches;
        this.p4info = p4info;
        this.rules = new HhRules(appId);
        this.manager = new HeavyHitterManager(this::writeAll, initial);
        int digestId = p4info.digestId(HhP4Names.DIGEST);
        switches.forEach((device, session) -> {
            session.client().onDigest(digestId, list -> HhDigests.decode(
                    device, list, clock.instant()).forEach(manager::reported));
            try {
                prepare(session);
            } catch (RuntimeException e) {
                // The rest of the host works without it; new settings will say why.
                LOG.warn("{}: heavy-hitter detection not prepared: {}", device, e.getMessage());
            }
        });
    }

    /**
     * Writes the settings and the digest subscription to a switch (again
     * after it came back).
     *
     * @param session the switch
     */
    void prepare(SwitchSession session) {
        writeSettings(session, manager.settings());
        CcSwitchSetup.insertOrModify(session, List.of(Update.newBuilder()
                .setType(Update.Type.INSERT).setEntity(Entity.newBuilder().setDigestEntry(
                        DigestEntry.newBuilder().setDigestId(p4info.digestId(HhP4Names.DIGEST))
                                .setConfig(DIGEST_CONFIG))).build()));
    }

    private void writeSettings(SwitchSession session, HeavyHitterSettings settings) {
        for (FlowRule rule : rules.all(session.deviceId(), settings)) {
            session.setDefaultAction(rule);
        }
    }

    private void writeAll(HeavyHitterSettings settings) {
        List<String> failed = new ArrayList<>();
        switches.forEach((device, session) -> {
            try {
                writeSettings(session, settings);
            } catch (RuntimeException e) {
                failed.add(device + " (" + e.getMessage() + ")");
            }
        });
        if (!failed.isEmpty()) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "heavy-hitter settings not taken by " + String.join(", ", failed)
                                               + "; they take them when they come back");
        }
    }

    /**
     * The service.
     *
     * @return manager
     */
    HeavyHitterManager manager() {
        return manager;
    }

    @Override
    public void close() {
        // Nothing of its own to stop: the reports run on the switches' streams.
    }
}
