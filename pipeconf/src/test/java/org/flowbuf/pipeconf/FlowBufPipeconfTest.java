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

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
        private PiPipeconf registered;

        @Override
        public void register(PiPipeconf pipeconf) {
            log.add("register " + pipeconf.id());
            registered = pipeconf;
        }

        @Override
        public void unregister(PiPipeconfId id) {
            log.add("unregister " + id);
            registered = null;
        }

        @Override
        public Optional<PiPipeconf> getPipeconf(PiPipeconfId id) {
            return Optional.ofNullable(registered).filter(p -> p.id().equals(id));
        }
    }

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
        loader.deactivate();
        loader.deactivate(); // a second deactivation has nothing left to remove
        assertEquals(List.of("register org.flowbuf.pipeconf", "unregister org.flowbuf.pipeconf"),
                     service.log);
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
        assertEquals(List.of("register org.flowbuf.pipeconf", "remove the rules of org.flowbuf.app",
                             "unregister org.flowbuf.pipeconf"), service.log);
    }

    @Test
    public void aLeftoverRegistrationIsReplaced() {
        Pipeconfs service = new Pipeconfs();
        service.registered = FlowBufPipeconfs.build();
        PipeconfLoader loader = new PipeconfLoader();
        loader.pipeconfService = service;
        loader.activate();
        assertEquals(List.of("unregister org.flowbuf.pipeconf", "register org.flowbuf.pipeconf"),
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
