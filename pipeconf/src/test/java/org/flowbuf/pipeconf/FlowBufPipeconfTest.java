/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.app.ApplicationServiceAdapter;
import org.onosproject.app.ApplicationState;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.Device;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.group.GroupServiceAdapter;
import org.junit.Test;
import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiTableId;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The pipeconf is built from the bundle's p4info and registers and
 * unregisters cleanly.
 */
public class FlowBufPipeconfTest {

    /** Records registrations; knows what it registered. */
    private static final class Pipeconfs extends PiPipeconfServiceAdapter {
        private final List<String> log = new ArrayList<>();
        private final Map<PiPipeconfId, PiPipeconf> registered = new LinkedHashMap<>();

        @Override
        public void register(PiPipeconf pipeconf) {
            log.add("register " + pipeconf.id());
            registered.put(pipeconf.id(), pipeconf);
        }

        @Override
        public void unregister(PiPipeconfId id) {
            log.add("unregister " + id);
            registered.remove(id);
        }

        @Override
        public Optional<PiPipeconf> getPipeconf(PiPipeconfId id) {
            return Optional.ofNullable(registered.get(id));
        }
    }

    private static final String FAST = "org.flowbuf.pipeconf.upf-fast";
    private static final String SLOW = "org.flowbuf.pipeconf.upf-slow";

    @Test
    public void thePipeconfCarriesTheProgramAndItsBehaviours() {
        PiPipeconf pipeconf = FlowBufPipeconfs.build();
        assertEquals("org.flowbuf.pipeconf", pipeconf.id().id());
        for (var table : List.of(FlowBufP4Names.FLOW_STEERING, FlowBufP4Names.VPORT_PORTS,
                                 FlowBufP4Names.L2_EXACT, FlowBufP4Names.ROUTING_V4,
                                 FlowBufP4Names.ACL)) {
            assertTrue(table + " is missing", pipeconf.pipelineModel().table(table).isPresent());
        }
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT).isPresent());
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.BMV2_JSON).isPresent());
        assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.CPU_PORT_TXT).isPresent());
        assertTrue(pipeconf.hasBehaviour(PiPipelineInterpreter.class));
        assertTrue(pipeconf.hasBehaviour(Pipeliner.class));
    }

    @Test
    public void theLoaderRegistersOnActivationAndUnregistersOnDeactivation() {
        Pipeconfs service = new Pipeconfs();
        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.coreService = new CoreServiceAdapter(); // FlowBuf's app never registered
        loader.activate();
        assertEquals(List.of("org.flowbuf.pipeconf", FAST, SLOW),
                     service.registered.keySet().stream().map(PiPipeconfId::id).collect(Collectors.toList()));
        loader.deactivate();
        loader.deactivate(); // a second deactivation has nothing left to remove
        assertEquals(List.of("register org.flowbuf.pipeconf", "register " + FAST, "register " + SLOW,
                             "unregister org.flowbuf.pipeconf", "unregister " + FAST, "unregister " + SLOW),
                     service.log);
    }

    @Test
    public void theUpfProfilesCarryTheirOwnProgramAndSizes() throws Exception {
        Map<String, Long> sessions = Map.of("org.flowbuf.pipeconf", 65536L, FAST, 4096L, SLOW, 1048576L);
        Set<String> jsons = new HashSet<>();
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            PiPipeconf pipeconf = FlowBufPipeconfs.build(id);
            assertEquals(id, pipeconf.id());
            for (PiTableId table : List.of(UpfP4Names.DOWNLINK_SESSIONS, UpfP4Names.UPLINK_SESSIONS)) {
                assertEquals(id + " " + table, (long) sessions.get(id.id()),
                             pipeconf.pipelineModel().table(table).orElseThrow().maxSize());
            }
            assertTrue(pipeconf.extension(PiPipeconf.ExtensionType.P4_INFO_TEXT).isPresent());
            assertTrue(pipeconf.hasBehaviour(PiPipelineInterpreter.class));
            jsons.add(new String(pipeconf.extension(PiPipeconf.ExtensionType.BMV2_JSON).orElseThrow().readAllBytes()));
        }
        assertEquals("each pipeconf carries its own bmv2 JSON", 3, jsons.size());
    }

    @Test
    public void theProfilesAreFlowBufPipeconfs() {
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            assertTrue(id.toString(), FlowBufPipeconfs.isFlowBuf(id));
        }
        assertTrue(!FlowBufPipeconfs.isFlowBuf(new PiPipeconfId("org.onosproject.pipelines.fabric")));
    }

    @Test(expected = IllegalArgumentException.class)
    public void anUnknownProfileIsRefused() {
        FlowBufPipeconfs.build(new PiPipeconfId("org.flowbuf.pipeconf.upf-huge"));
    }

    @Test
    public void theAppsRulesLeaveBeforeThePipeconfThatTranslatesThem() {
        // ONOS live: removed after the pipeconf had gone, every rule stayed.
        Pipeconfs service = new Pipeconfs();
        ApplicationId app = new DefaultApplicationId(5, PipeconfLoader.APP_NAME);
        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId getAppId(String name) {
                return PipeconfLoader.APP_NAME.equals(name) ? app : null;
            }
        };
        loader.applicationService = new ApplicationServiceAdapter() {
            @Override
            public ApplicationState getState(ApplicationId appId) {
                return ApplicationState.INSTALLED; // being deactivated
            }
        };
        loader.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void removeFlowRulesById(ApplicationId appId) {
                service.log.add("remove the rules of " + appId.name());
            }

            @Override
            public Iterable<FlowEntry> getFlowEntriesById(ApplicationId appId) {
                return List.of();
            }
        };
        loader.groupService = new GroupServiceAdapter();
        loader.deviceService = new DeviceServiceAdapter() {
            @Override
            public Iterable<Device> getDevices() {
                return List.of();
            }
        };
        loader.activate();
        loader.deactivate();
        assertEquals(List.of("register org.flowbuf.pipeconf", "register " + FAST, "register " + SLOW,
                             "remove the rules of org.flowbuf.app", "unregister org.flowbuf.pipeconf",
                             "unregister " + FAST, "unregister " + SLOW), service.log);
    }

    @Test
    public void aLeftoverRegistrationIsReplaced() {
        Pipeconfs service = new Pipeconfs();
        service.registered.put(FlowBufPipeconfs.PIPECONF_ID, FlowBufPipeconfs.build());
        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.activate();
        assertEquals(List.of("unregister org.flowbuf.pipeconf", "register org.flowbuf.pipeconf",
                             "register " + FAST, "register " + SLOW),
                     service.log);
    }

    @Test
    public void theCpuPortFileMatchesTheProgram() throws Exception {
        String defines = new String(java.nio.file.Files.readAllBytes(
                java.nio.file.Path.of("p4src", "include", "defines.p4")));
        assertTrue("defines.p4 has CPU_PORT = " + FlowBufP4Names.CPU_PORT,
                   defines.contains("CPU_PORT = " + FlowBufP4Names.CPU_PORT + ";"));
        assertTrue(defines.contains("CPU_CLONE_SESSION_ID = "
                                            + FlowBufP4Names.CPU_CLONE_SESSION_ID + ";"));
        String file = new String(FlowBufPipeconfs.class.getResourceAsStream("/p4/cpu_port.txt")
                                         .readAllBytes()).trim();
        assertEquals(String.valueOf(FlowBufP4Names.CPU_PORT), file);
    }
}
