/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.junit.Before;
import org.junit.Test;
import org.onlab.osgi.ServiceDirectory;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.behaviour.PipelinerContext;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flowobjective.DefaultForwardingObjective;
import org.onosproject.net.flowobjective.FlowObjectiveStore;
import org.onosproject.net.flowobjective.ForwardingObjective;
import org.onosproject.net.flowobjective.Objective;
import org.onosproject.net.flowobjective.ObjectiveContext;
import org.onosproject.net.flowobjective.ObjectiveError;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Forwarding objectives of ONOS apps become FlowBuf table entries.
 */
public class FlowBufPipelinerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final ApplicationId APP = new DefaultApplicationId(7, "org.example");

    private final List<FlowRule> installed = new ArrayList<>();
    private final List<String> outcomes = new ArrayList<>();
    private final FlowBufPipeliner pipeliner = new FlowBufPipeliner();

    /** Applies operations at once and reports success. */
    private final class Rules extends FlowRuleServiceAdapter {
        @Override
        public void apply(FlowRuleOperations ops) {
            ops.stages().forEach(stage -> stage.forEach(op -> {
                if (op.type() == FlowRuleOperation.Type.ADD) {
                    installed.add(op.rule());
                } else {
                    installed.remove(op.rule());
                }
            }));
            ops.callback().onSuccess(ops);
        }
    }

    private final ObjectiveContext context = new ObjectiveContext() {
        @Override
        public void onSuccess(Objective objective) {
            outcomes.add("ok");
        }

        @Override
        public void onError(Objective objective, ObjectiveError error) {
            outcomes.add(error.name());
        }
    };

    @Before
    public void setUp() {
        FlowRuleService rules = new Rules();
        pipeliner.init(S1, new PipelinerContext() {
            @Override
            public ServiceDirectory directory() {
                return new ServiceDirectory() {
                    @Override
                    public <T> T get(Class<T> type) {
                        return type.cast(rules);
                    }
                };
            }

            @Override
            public FlowObjectiveStore store() {
                return null;
            }
        });
    }

    private static DefaultForwardingObjective.Builder objective() {
        return DefaultForwardingObjective.builder().fromApp(APP).withPriority(40000)
                .makePermanent().withFlag(ForwardingObjective.Flag.VERSATILE);
    }

    @Test
    public void aPuntBecomesAnAclEntry() {
        pipeliner.forward(objective()
                                  .withSelector(DefaultTrafficSelector.builder()
                                                        .matchEthType((short) 0x0806).build())
                                  .withTreatment(DefaultTrafficTreatment.builder().punt().build())
                                  .add(context));
        assertEquals(List.of("ok"), outcomes);
        assertEquals(FlowBufP4Names.ACL, installed.get(0).table());
        assertEquals(S1, installed.get(0).deviceId());
        assertEquals(40000, installed.get(0).priority());
    }

    @Test
    public void anOutputOnADestinationMacBecomesAnL2EntryAndCanBeRemoved() {
        ForwardingObjective.Builder b = objective()
                .withSelector(DefaultTrafficSelector.builder()
                                      .matchEthDst(MacAddress.valueOf("00:00:00:00:00:02")).build())
                .withTreatment(DefaultTrafficTreatment.builder()
                                       .setOutput(PortNumber.portNumber(2)).build());
        pipeliner.forward(b.add(context));
        assertEquals(FlowBufP4Names.L2_EXACT, installed.get(0).table());
        pipeliner.forward(b.remove(context));
        assertTrue(installed.isEmpty());
        assertEquals(List.of("ok", "ok"), outcomes);
    }

    @Test
    public void whatThePipelineCannotDoIsUnsupported() {
        pipeliner.forward(objective()
                                  .withSelector(DefaultTrafficSelector.builder()
                                                        .matchIPDst(org.onlab.packet.IpPrefix
                                                                            .valueOf("10.0.0.0/8"))
                                                        .build())
                                  .withTreatment(DefaultTrafficTreatment.builder()
                                                         .setOutput(PortNumber.portNumber(2))
                                                         .build())
                                  .add(context));
        assertEquals(List.of(ObjectiveError.UNSUPPORTED.name()), outcomes);
        assertTrue(installed.isEmpty());
    }
}
