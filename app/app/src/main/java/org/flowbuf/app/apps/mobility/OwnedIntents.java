/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onosproject.net.ConnectPoint;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An app's intents of one flow still in force, as the Buffer Service keeps
 * them (cluster-wide): where an adopted LMM handoff or FMM session finds the
 * intents its dead runner had put in place, by kind, place and buffer.
 */
final class OwnedIntents {

    private final List<FlowBufIntent> live;

    /**
     * @param intents the intent service
     * @param owner   the app
     * @param flow    the flow (a UE's downlink, its attach signal)
     */
    OwnedIntents(FlowBufIntentService intents, String owner, FlowFilter flow) {
        this.live = intents.getIntents().stream()
                .filter(i -> owner.equals(i.owner()) && flow.equals(i.filter())
                        && (i.state() == FlowBufIntent.State.INSTALLED
                        || i.state() == FlowBufIntent.State.REQUESTED))
                .collect(Collectors.toList());
    }

    /**
     * @param type   pause or resume
     * @param at     the in-port (pause) or out-port (resume)
     * @param buffer the buffer it holds in or releases from
     * @return its id, or null when there is none (not made yet, or withdrawn)
     */
    IntentId find(FlowBufIntent.Type type, ConnectPoint at, BufferId buffer) {
        return live.stream()
                .filter(i -> i.type() == type && i.deviceId().equals(at.deviceId())
                        && i.port().equals(at.port())
                        && i.bufferId().equals(Optional.ofNullable(buffer)))
                .map(FlowBufIntent::id).findFirst().orElse(null);
    }
}
