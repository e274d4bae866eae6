/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowId;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTableEntryHandle;
import org.onosproject.net.pi.service.PiFlowRuleTranslator;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.net.pi.service.PiTranslatedEntity;
import org.onosproject.net.pi.service.PiTranslationException;
import org.onosproject.net.pi.service.PiTranslationService;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * Tells ONOS's PI translation store which of a device's table entries are
 * FlowBuf's rules, before ONOS reads the device.
 *
 * <p>After ONOS restarts, its translation store is empty; the first read of
 * a reconnected P4Runtime device (on its availability event) deletes every
 * entry the store cannot account for. A paused flow's steering rule written
 * again through the flow rule service only reaches the store once the
 * driver executes that batch: when the read came first, the rule was
 * deleted and written again ~200 ms later, and the flow's packets arriving
 * in between were dropped (47 of a live 200 pps flow, make test-onos).
 * Learnt here, synchronously on the first of the device's events (its
 * ports, from gNMI, come before it is available), the entry is recognised.
 * Every component whose entries outlive an ONOS restart on the switch
 * claims them here (the Buffer Service's, the UPF's, congestion avoidance's).
 */
final class PiTranslationClaims {

    private final Logger log = getLogger(getClass());
    private final PiPipeconfService pipeconfs;
    private final PiTranslationService translations;
    private final FlowRuleService flowRules;

    PiTranslationClaims(PiPipeconfService pipeconfs, PiTranslationService translations,
                        FlowRuleService flowRules) {
        this.pipeconfs = Objects.requireNonNull(pipeconfs);
        this.translations = Objects.requireNonNull(translations);
        this.flowRules = Objects.requireNonNull(flowRules);
    }

    /**
     * Makes the rules known to ONOS where it does not know them yet: learnt
     * into its PI translation store, and written to its flow store (a known
     * entry the flow store lacks is deleted as extraneous).
     *
     * @param deviceId device
     * @param rules    flow rules of that device
     * @param what     what the rules are, for the log
     * @return how many rules ONOS did not know (learnt now, or all of them
     *         while the device has no pipeconf yet) and were written
     */
    int claim(DeviceId deviceId, List<FlowRule> rules, String what) {
        if (rules.isEmpty()) {
            return 0;
        }
        List<FlowRule> unknown = learn(deviceId, rules);
        if (!unknown.isEmpty()) {
            flowRules.applyFlowRules(unknown.toArray(new FlowRule[0]));
            log.info("{}: {} {} written again, made known to ONOS before its first read",
                     deviceId, unknown.size(), what);
        }
        return unknown.size();
    }

    /**
     * As {@link #claim}, and also writes again the rules ONOS's flow store
     * lacks or holds with another action: for a new master, whose flow
     * store may miss the dead master's last writes ({@link NewMasterClaims}).
     *
     * @param deviceId device
     * @param rules    flow rules of that device, as they should be there
     * @param what     what the rules are, for the log
     * @return how many rules were written
     */
    int restore(DeviceId deviceId, List<FlowRule> rules, String what) {
        if (rules.isEmpty()) {
            return 0;
        }
        Map<FlowId, FlowEntry> stored = new HashMap<>();
        flowRules.getFlowEntries(deviceId).forEach(entry -> stored.put(entry.id(), entry));
        Set<FlowRule> write = new LinkedHashSet<>(learn(deviceId, rules));
        rules.stream().filter(rule -> !storedAsIs(stored.get(rule.id()), rule))
                .forEach(write::add);
        if (!write.isEmpty()) {
            flowRules.applyFlowRules(write.toArray(new FlowRule[0]));
            log.info("{}: {} {} written again for this new master, of {}", deviceId,
                     write.size(), what, rules.size());
        }
        return write.size();
    }

    // A rule the flow store holds with the same action, not on its way out.
    private static boolean storedAsIs(FlowEntry entry, FlowRule rule) {
        return entry != null && entry.exactMatch(rule)
                && entry.state() != FlowEntry.FlowEntryState.PENDING_REMOVE
                && entry.state() != FlowEntry.FlowEntryState.REMOVED;
    }

    /** The rules ONOS's translation store did not know, learnt now where it can. */
    private List<FlowRule> learn(DeviceId deviceId, List<FlowRule> rules) {
        Optional<PiPipeconf> pipeconf = pipeconfs.getPipeconf(deviceId);
        if (pipeconf.isEmpty()) {
            return rules;
        }
        PiFlowRuleTranslator translator = translations.flowRuleTranslator();
        List<FlowRule> unknown = new ArrayList<>();
        for (FlowRule rule : rules) {
            try {
                PiTableEntry entry = translator.translate(rule, pipeconf.get());
                PiTableEntryHandle handle = entry.handle(deviceId);
                if (translator.lookup(handle).isEmpty()) {
                    translator.learn(handle, new PiTranslatedEntity<>(rule, entry, handle));
                    unknown.add(rule);
                }
            } catch (PiTranslationException e) {
                log.warn("{}: rule not translated for {}: {}", deviceId, pipeconf.get().id(),
                         e.getMessage());
                unknown.add(rule);
            }
        }
        return unknown;
    }
}
