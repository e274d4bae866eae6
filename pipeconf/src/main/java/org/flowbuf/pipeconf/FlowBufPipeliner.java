/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.behaviour.NextGroup;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.behaviour.PipelinerContext;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.TrafficSelector;
import org.onosproject.net.flow.TrafficTreatment;
import org.onosproject.net.flow.criteria.Criterion;
import org.onosproject.net.flow.instructions.Instruction;
import org.onosproject.net.flow.instructions.Instructions.OutputInstruction;
import org.onosproject.net.flowobjective.FilteringObjective;
import org.onosproject.net.flowobjective.ForwardingObjective;
import org.onosproject.net.flowobjective.NextObjective;
import org.onosproject.net.flowobjective.Objective;
import org.onosproject.net.flowobjective.ObjectiveError;
import org.onosproject.net.pi.model.PiTableId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns flow objectives into FlowBuf table entries, so that ONOS's own apps
 * (packet intercepts for host discovery and LLDP, reactive forwarding) run
 * on FlowBuf switches: a punt to the controller becomes an ACL entry, an
 * output on a destination MAC an L2 entry. Filtering objectives need no
 * entries (the program has no ingress filtering stage).
 */
public class FlowBufPipeliner extends AbstractHandlerBehaviour implements Pipeliner {

    private final Map<Integer, TrafficTreatment> nexts = new ConcurrentHashMap<>();
    private DeviceId deviceId;
    private FlowRuleService flowRules;

    @Override
    public void init(DeviceId device, PipelinerContext context) {
        this.deviceId = device;
        this.flowRules = context.directory().get(FlowRuleService.class);
    }

    @Override
    public void filter(FilteringObjective objective) {
        objective.context().ifPresent(c -> c.onSuccess(objective));
    }

    @Override
    public void forward(ForwardingObjective objective) {
        TrafficTreatment treatment = objective.treatment();
        if (treatment == null && objective.nextId() != null) {
            treatment = nexts.get(objective.nextId());
        }
        Optional<FlowRule> rule = treatment == null ? Optional.empty()
                : ruleFor(objective, objective.selector(), treatment);
        if (rule.isEmpty()) {
            fail(objective, ObjectiveError.UNSUPPORTED);
            return;
        }
        apply(objective, rule.get());
    }

    /**
     * The table entry of a forwarding objective, if the pipeline has one:
     * output to the controller in the ACL, output to a port on an exact
     * destination MAC in l2_exact.
     *
     * @param objective the objective (app, priority, lifetime)
     * @param selector  what to match
     * @param treatment what to do
     * @return the rule (device unset), empty when the pipeline has no table for it
     */
    static Optional<FlowRule> ruleFor(ForwardingObjective objective, TrafficSelector selector,
                                      TrafficTreatment treatment) {
        Optional<PortNumber> output = singleOutput(treatment);
        if (output.isEmpty()) {
            return Optional.empty();
        }
        PiTableId table;
        if (PortNumber.CONTROLLER.equals(output.get())) {
            table = FlowBufP4Names.ACL;
        } else if (onlyEthDst(selector) && !output.get().isLogical()) {
            table = FlowBufP4Names.L2_EXACT;
        } else {
            return Optional.empty();
        }
        FlowRule.Builder rule = DefaultFlowRule.builder()
                .forTable(table)
                .withSelector(selector)
                .withTreatment(treatment)
                .fromApp(objective.appId())
                .withPriority(objective.priority());
        if (objective.permanent()) {
            rule.makePermanent();
        } else {
            rule.makeTemporary(objective.timeout());
        }
        return Optional.of(rule.forDevice(DeviceId.NONE).build());
    }

    private static Optional<PortNumber> singleOutput(TrafficTreatment treatment) {
        List<Instruction> instructions = treatment.allInstructions();
        if (instructions.size() != 1 || instructions.get(0).type() != Instruction.Type.OUTPUT) {
            return Optional.empty();
        }
        return Optional.of(((OutputInstruction) instructions.get(0)).port());
    }

    private static boolean onlyEthDst(TrafficSelector selector) {
        return selector.criteria().size() == 1
                && selector.getCriterion(Criterion.Type.ETH_DST) != null;
    }

    private void apply(ForwardingObjective objective, FlowRule template) {
        FlowRule rule = DefaultFlowRule.builder().fromApp(objective.appId())
                .forDevice(deviceId).forTable(template.table())
                .withSelector(template.selector()).withTreatment(template.treatment())
                .withPriority(template.priority()).makePermanent().build();
        FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
        if (objective.op() == Objective.Operation.REMOVE) {
            ops.remove(rule);
        } else {
            ops.add(rule);
        }
        flowRules.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations done) {
                objective.context().ifPresent(c -> c.onSuccess(objective));
            }

            @Override
            public void onError(FlowRuleOperations failed) {
                fail(objective, ObjectiveError.FLOWINSTALLATIONFAILED);
            }
        }));
    }

    @Override
    public void next(NextObjective objective) {
        if (objective.type() != NextObjective.Type.SIMPLE || objective.next().size() != 1) {
            fail(objective, ObjectiveError.UNSUPPORTED);
            return;
        }
        if (objective.op() == Objective.Operation.REMOVE) {
            nexts.remove(objective.id());
        } else {
            nexts.put(objective.id(), objective.next().iterator().next());
        }
        objective.context().ifPresent(c -> c.onSuccess(objective));
    }

    @Override
    public void purgeAll(ApplicationId appId) {
        flowRules.purgeFlowRules(deviceId, appId);
    }

    @Override
    public List<String> getNextMappings(NextGroup nextGroup) {
        return List.of();
    }

    private static void fail(Objective objective, ObjectiveError error) {
        objective.context().ifPresent(c -> c.onError(objective, error));
    }
}
