/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentEvent;
import org.flowbuf.api.IntentId;
import org.flowbuf.app.history.Retention;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The record of intents and the rules they installed: every change of an
 * intent's state goes through here, so each one is stored and announced
 * exactly once. An intent changes only in its flow's turn (FlowTurns);
 * the store is concurrent.
 */
final class IntentLedger {

    private final IntentStore store;
    private final Retention<IntentId> retention;
    private volatile Consumer<IntentEvent> events = e -> { };

    // Keeps the latest keptFinished withdrawn or failed intents; a store
    // that outlived a restart has its finished ones counted, oldest first.
    IntentLedger(IntentStore store, int keptFinished) {
        this.store = Objects.requireNonNull(store);
        this.retention = new Retention<>(keptFinished);
        store.intents().values().stream().filter(i -> finished(i.state()))
                .sorted(Comparator.comparing(i -> i.id().id()))
                .forEach(i -> forgetOld(i.id()));
    }

    IntentStore store() {
        return store;
    }

    void setEventSink(Consumer<IntentEvent> sink) {
        this.events = Objects.requireNonNull(sink);
    }

    // A new intent, recorded as REQUESTED.
    FlowBufIntent open(FlowBufIntent.Type type, DeviceId deviceId, PortNumber port,
                       FlowFilter filter, String owner) {
        return record(new FlowBufIntent(store.nextId(), type, deviceId, port, filter, null,
                                        FlowBufIntent.State.REQUESTED, owner, null));
    }

    // An intent installed with its rule.
    FlowBufIntent installed(FlowBufIntent intent, BufferId bufferId, SteeringRule rule) {
        store.putRule(intent.id(), intent.deviceId(), rule);
        return record(intent.with(FlowBufIntent.State.INSTALLED, bufferId, null));
    }

    // An intent that failed, with why; announced either way. Kept as FAILED
    // when the service could not carry it out (the device or agent refused,
    // busy, full or away); forgotten when the request itself was refused
    // (bad input, an unknown subject, another owner's): a refused request
    // leaves nothing in the store (seen live under ONOS: a pause with an
    // in-port the switch cannot hold answered 400 and left a FAILED intent).
    FlowBufIntent failed(FlowBufIntent intent, BufferId bufferId, FlowBufException cause) {
        FlowBufIntent failed = intent.with(FlowBufIntent.State.FAILED, bufferId,
                                           cause.getMessage());
        if (!refused(cause.reason())) {
            return record(failed);
        }
        store.remove(intent.id());
        events.accept(new IntentEvent(IntentEvent.typeOf(failed.state()), failed));
        return failed;
    }

    private static boolean refused(FlowBufException.Reason reason) {
        return reason == FlowBufException.Reason.INVALID
                || reason == FlowBufException.Reason.NOT_FOUND
                || reason == FlowBufException.Reason.FORBIDDEN;
    }

    // Stores an intent and announces a change of its state.
    FlowBufIntent record(FlowBufIntent intent) {
        Optional<FlowBufIntent> previous = store.put(intent);
        if (previous.isEmpty() || previous.get().state() != intent.state()) {
            events.accept(new IntentEvent(IntentEvent.typeOf(intent.state()), intent));
            if (finished(intent.state())) {
                forgetOld(intent.id());
            }
        }
        return intent;
    }

    private static boolean finished(FlowBufIntent.State state) {
        return state == FlowBufIntent.State.WITHDRAWN || state == FlowBufIntent.State.FAILED;
    }

    private void forgetOld(IntentId justFinished) {
        retention.finished(justFinished).forEach(store::remove);
    }

    // The installed intent whose rule on this device is this rule, if any.
    Optional<IntentId> installedWith(DeviceId deviceId, SteeringRule rule) {
        return store.ruleOwner(deviceId, rule);
    }

    // Withdraws an intent whose rule a newer intent took over.
    void supersede(IntentId id) {
        store.removeRule(id);
        FlowBufIntent old = store.get(id).orElseThrow();
        record(old.with(FlowBufIntent.State.WITHDRAWN, old.bufferId().orElse(null), null));
    }

    // The latest installed pause of the flow at that in-port: its rule is
    // the one a pause of the same flow there would write. Only installed
    // intents hold a rule; the store finds them by device and filter
    // (in-port ignored) without scanning the history or every rule.
    Optional<FlowBufIntent> installedPause(DeviceId deviceId, PortNumber inPort,
                                           FlowFilter filter) {
        return store.installedPauses(deviceId, filter).stream()
                .filter(i -> i.port().equals(inPort))
                .max(Comparator.comparing(i -> i.id().id()));
    }

    // The buffer of the latest installed pause with this filter (in-port
    // ignored).
    Optional<BufferId> pausedBuffer(DeviceId deviceId, FlowFilter filter) {
        return store.installedPauses(deviceId, filter).stream()
                .max(Comparator.comparing(i -> i.id().id()))
                .map(i -> i.bufferId().orElseThrow());
    }
}
