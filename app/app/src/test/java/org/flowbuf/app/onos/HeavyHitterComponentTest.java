/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.app.config.HeavyHitterAppConfig;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.flowbuf.pipeconf.HhP4Names;
import org.junit.After;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceServiceAdapter;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.flow.instructions.PiInstruction;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.provider.ProviderId;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The heavy-hitter component in ONOS: the netcfg section's settings become
 * hh_settings' default action on each FlowBuf switch this instance
 * masters (not on another pipeconf's), again when a switch comes back,
 * and REST changes reach them all.
 */
public class HeavyHitterComponentTest {

    private static final ProviderId PID = new ProviderId("test", "org.flowbuf.test");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final DeviceId OTHER = DeviceId.deviceId("device:other");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<FlowRule> added = new CopyOnWriteArrayList<>();
    private final List<DeviceListener> deviceListeners = new CopyOnWriteArrayList<>();
    private final HeavyHitterComponent component = new HeavyHitterComponent();
    private volatile boolean refuse;

    private static Device device(DeviceId id) {
        return new DefaultDevice(PID, id, Device.Type.SWITCH, "", "", "", "", new ChassisId(1));
    }

    private void start(String netcfg) throws Exception {
        ObjectNode section = netcfg == null ? null : (ObjectNode) MAPPER.readTree(netcfg);
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(7, name);
            }
        };
        component.flowRuleService = new FlowRuleServiceAdapter() {
            @Override
            public void apply(FlowRuleOperations ops) {
                if (refuse) {
                    ops.callback().onError(ops);
                    return;
                }
                ops.stages().forEach(stage -> stage.stream()
                        .filter(op -> op.type() == FlowRuleOperation.Type.ADD)
                        .forEach(op -> added.add(op.rule())));
                ops.callback().onSuccess(ops);
            }
        };
        component.deviceService = new DeviceServiceAdapter() {
            @Override
            public Iterable<Device> getAvailableDevices() {
                return List.of(device(S1), device(S2), device(OTHER));
            }

            @Override
            public boolean isAvailable(DeviceId deviceId) {
                return true;
            }

            @Override
            public void addListener(DeviceListener listener) {
                deviceListeners.add(listener);
            }

            @Override
            public void removeListener(DeviceListener listener) {
                deviceListeners.remove(listener);
            }
        };
        component.mastershipService = new MastershipServiceAdapter() {
            @Override
            public boolean isLocalMaster(DeviceId deviceId) {
                return true;
            }
        };
        component.netcfgRegistry = new NetworkConfigRegistryAdapter() {
            @Override
            public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
                if (!configClass.equals(HeavyHitterAppConfig.class) || section == null) {
                    return null;
                }
                HeavyHitterAppConfig config = new HeavyHitterAppConfig();
                config.init((ApplicationId) subject, HeavyHitterAppConfig.CONFIG_KEY, section,
                            MAPPER, c -> { });
                return configClass.cast(config);
            }
        };
        component.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
                // s2 runs the hybrid UPF's fast-path profile: the same program.
                return Optional.of(OTHER.equals(deviceId) ? new PiPipeconfId("org.other")
                                   : S2.equals(deviceId) ? FlowBufPipeconfs.UPF_FAST_ID
                                   : FlowBufPipeconfs.PIPECONF_ID);
            }
        };
        component.activate();
    }

    @After
    public void tearDown() {
        component.deactivate();
        assertEquals(List.of(), deviceListeners);
    }

    /** The latest settings rule per device: [threshold, idle_us]. */
    private Map<DeviceId, List<Long>> written() {
        Map<DeviceId, List<Long>> latest = new TreeMap<>((a, b) -> a.toString()
                .compareTo(b.toString()));
        for (FlowRule rule : added) {
            if (rule.table().equals(HhP4Names.OBSERVATION)) {
                continue;  // written with each settings rule: see observations()
            }
            assertEquals(HhP4Names.SETTINGS, rule.table());
            PiAction a = (PiAction) ((PiInstruction) rule.treatment().allInstructions().get(0))
                    .action();
            latest.put(rule.deviceId(), List.of(param(a, HhP4Names.THRESHOLD),
                                                param(a, HhP4Names.IDLE_US)));
        }
        return latest;
    }

    /** The latest observation rule per device: [min_us, min_bytes]. */
    private Map<DeviceId, List<Long>> observations() {
        Map<DeviceId, List<Long>> latest = new TreeMap<>((a, b) -> a.toString()
                .compareTo(b.toString()));
        for (FlowRule rule : added) {
            if (rule.table().equals(HhP4Names.OBSERVATION)) {
                PiAction a = (PiAction) ((PiInstruction) rule.treatment().allInstructions()
                        .get(0)).action();
                assertEquals(HhP4Names.SET_OBSERVATION, a.id());
                latest.put(rule.deviceId(), List.of(param(a, HhP4Names.MIN_US),
                                                    param(a, HhP4Names.MIN_BYTES)));
            }
        }
        return latest;
    }

    private static long param(PiAction action, PiActionParamId id) {
        return new BigInteger(1, action.parameters().stream().filter(p -> p.id().equals(id))
                .findFirst().orElseThrow().value().asArray()).longValue();
    }

    private void waitFor(Map<DeviceId, List<Long>> expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!written().equals(expected)) {
            if (System.currentTimeMillis() > deadline) {
                fail("written " + written() + ", want " + expected);
            }
            Thread.sleep(10);
        }
    }

    @Test
    public void theNetcfgSettingsReachEveryFlowBufSwitchAgainWhenOneComesBack() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 10000000, \"packetBytes\": 1250, \"idleMs\": 500}");
        List<Long> on = List.of(8000L, 500_000L);
        waitFor(Map.of(S1, on, S2, on));
        added.clear();
        deviceListeners.forEach(l -> l.event(new DeviceEvent(
                DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, device(S2))));
        waitFor(Map.of(S2, on));
    }

    @Test
    public void newSettingsReachEverySwitchAndAFailureIsUnavailable() throws Exception {
        start(null);
        List<Long> off = List.of(0L, 1_000_000L);
        waitFor(Map.of(S1, off, S2, off));
        HeavyHitterSettings next = HeavyHitterSettings.of(true, 2_000_000, 1500, 1000);
        component.configure(next);
        waitFor(Map.of(S1, List.of(48_000L, 1_000_000L), S2, List.of(48_000L, 1_000_000L)));
        refuse = true;
        try {
            component.configure(HeavyHitterSettings.defaults());
            fail("configured with switches refusing");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertTrue(e.getMessage(), e.getMessage().contains("device:s1"));
        }
    }

    @Test
    public void theMinimumObservationIsWrittenWithTheSettings() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 2000000, \"packetBytes\": 1400, "
                      + "\"idleMs\": 500, \"minObserveMs\": 300}");
        waitFor(Map.of(S1, List.of(44_800L, 500_000L), S2, List.of(44_800L, 500_000L)));
        // 300 ms, and 2 Mbit/s for 300 ms: 75,000 bytes.
        assertEquals(Map.of(S1, List.of(300_000L, 75_000L), S2, List.of(300_000L, 75_000L)),
                     observations());
        component.configure(HeavyHitterSettings.of(true, 2_000_000, 1400, 600));
        waitFor(Map.of(S1, List.of(44_800L, 600_000L), S2, List.of(44_800L, 600_000L)));
        assertEquals("none: 0, 0", Map.of(S1, List.of(0L, 0L), S2, List.of(0L, 0L)),
                     observations());
    }

    @Test
    public void aBadNetcfgSectionLeavesDetectionOff() throws Exception {
        start("{\"enabled\": true, \"rateBps\": 1}");
        assertEquals(HeavyHitterSettings.defaults(), component.settings());
    }
}
