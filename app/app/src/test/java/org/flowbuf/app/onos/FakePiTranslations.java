/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiHandle;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.service.PiFlowRuleTranslator;
import org.onosproject.net.pi.service.PiGroupTranslator;
import org.onosproject.net.pi.service.PiMeterTranslator;
import org.onosproject.net.pi.service.PiReplicationGroupTranslator;
import org.onosproject.net.pi.service.PiTranslatedEntity;
import org.onosproject.net.pi.service.PiTranslationService;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONOS's PI flow rule translator for the components' tests: translates a
 * rule to its table and match, records what it learns (in `order` too, as
 * "learn TABLE", so a test can see it came before a write).
 */
final class FakePiTranslations implements PiTranslationService, PiFlowRuleTranslator {

    final Map<PiHandle, FlowRule> learnt = new ConcurrentHashMap<>();
    private final List<String> order;

    FakePiTranslations(List<String> order) {
        this.order = order;
    }

    /**
     * FlowBuf's pipeconf as a device's: only its identity matters here.
     *
     * @return the pipeconf
     */
    static PiPipeconf pipeconf() {
        return (PiPipeconf) Proxy.newProxyInstance(
                PiPipeconf.class.getClassLoader(), new Class<?>[]{PiPipeconf.class},
                (proxy, method, args) -> "id".equals(method.getName())
                        ? new PiPipeconfId("org.flowbuf.pipeconf") : null);
    }

    @Override
    public PiFlowRuleTranslator flowRuleTranslator() {
        return this;
    }

    @Override
    public PiGroupTranslator groupTranslator() {
        throw new UnsupportedOperationException();
    }

    @Override
    public PiMeterTranslator meterTranslator() {
        throw new UnsupportedOperationException();
    }

    @Override
    public PiReplicationGroupTranslator replicationGroupTranslator() {
        throw new UnsupportedOperationException();
    }

    @Override
    public PiTableEntry translate(FlowRule rule, PiPipeconf pipeconf) {
        PiCriterion match = (PiCriterion) rule.selector()
                .getCriterion(Criterion.Type.PROTOCOL_INDEPENDENT);
        PiMatchKey key = match == null ? PiMatchKey.EMPTY
                : PiMatchKey.builder().addFieldMatches(match.fieldMatches()).build();
        return PiTableEntry.builder().forTable((PiTableId) rule.table())
                .withMatchKey(key).withPriority(rule.priority()).build();
    }

    @Override
    public void learn(PiHandle handle, PiTranslatedEntity<FlowRule, PiTableEntry> entity) {
        order.add("learn " + entity.original().table());
        learnt.put(handle, entity.original());
    }

    @Override
    public Optional<PiTranslatedEntity<FlowRule, PiTableEntry>> lookup(PiHandle handle) {
        FlowRule rule = learnt.get(handle);
        return rule == null ? Optional.empty() : Optional.of(new PiTranslatedEntity<>(
                rule, translate(rule, null), handle));
    }

    @Override
    public void forget(PiHandle handle) {
        learnt.remove(handle);
    }
}
