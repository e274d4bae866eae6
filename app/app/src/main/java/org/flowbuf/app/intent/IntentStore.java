/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.intent;

import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where intents and the steering rules of installed intents are kept: in
 * memory in the embedded host, in ONOS's distributed maps in a cluster (so
 * that any instance can answer and a new master can take over).
 */
public interface IntentStore {

    /**
     * A new, cluster-unique intent id.
     *
     * @return id
     */
    IntentId nextId();

    /**
     * Stores an intent.
     *
     * @param intent the intent
     * @return the previous version, if any
     */
    Optional<FlowBufIntent> put(FlowBufIntent intent);

    /**
     * An intent.
     *
     * @param id intent id
     * @return the intent, if known
     */
    Optional<FlowBufIntent> get(IntentId id);

    /**
     * Forgets a finished intent (its rule is already gone).
     *
     * @param id intent id
     */
    void remove(IntentId id);

    /**
     * Every intent.
     *
     * @return intents by id (a copy)
     */
    Map<IntentId, FlowBufIntent> intents();

    /**
     * Records the rule an installed intent owns.
     *
     * @param id       intent id
     * @param deviceId device the rule is on
     * @param rule     its rule
     */
    void putRule(IntentId id, DeviceId deviceId, SteeringRule rule);

    /**
     * Forgets an intent's rule.
     *
     * @param id intent id
     */
    void removeRule(IntentId id);

    /**
     * The rules of installed intents.
     *
     * @return rules by intent id (a copy)
     */
    Map<IntentId, SteeringRule> rules();

    /**
     * The rule of one installed intent, without copying the store (every
     * withdrawal asks). This one copies the rules; a store may look it up.
     *
     * @param id intent id
     * @return its rule, if it holds one
     */
    default Optional<SteeringRule> rule(IntentId id) {
        return Optional.ofNullable(rules().get(id));
    }

    /**
     * Which installed intent owns a rule on a device, without copying the
     * store (every pause and resume asks).
     *
     * @param deviceId device
     * @param rule     rule
     * @return the owner, if an installed intent has this rule
     */
    Optional<IntentId> ruleOwner(DeviceId deviceId, SteeringRule rule);

    /**
     * The installed pauses on a device whose filter, in-port ignored, is
     * this one, and which hold a rule (every pause asks). This one copies
     * and scans the rules of every installed intent; a store may keep an
     * index instead.
     *
     * @param deviceId device
     * @param filter   filter (its in-port is ignored)
     * @return those intents, in no particular order
     */
    default List<FlowBufIntent> installedPauses(DeviceId deviceId, FlowFilter filter) {
        FlowFilter wanted = filter.withoutInPort();
        return rules().keySet().stream().map(this::get).flatMap(Optional::stream)
                .filter(i -> isInstalledPause(i, deviceId, wanted))
                .collect(Collectors.toList());
    }

    /**
     * Whether an intent is an installed pause on a device with a filter.
     *
     * @param intent   intent
     * @param deviceId device
     * @param wanted   filter without in-port
     * @return true if so
     */
    static boolean isInstalledPause(FlowBufIntent intent, DeviceId deviceId, FlowFilter wanted) {
        return isInstalledPause(intent)
                && intent.deviceId().equals(deviceId)
                && intent.filter().withoutInPort().equals(wanted);
    }

    /**
     * Whether an intent is an installed pause.
     *
     * @param intent intent
     * @return true if so
     */
    static boolean isInstalledPause(FlowBufIntent intent) {
        return intent.type() == FlowBufIntent.Type.PAUSE
                && intent.state() == FlowBufIntent.State.INSTALLED;
    }
}
