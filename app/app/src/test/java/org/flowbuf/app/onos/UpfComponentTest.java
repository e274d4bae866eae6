/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.pipeconf.UpfP4Names;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.ChassisId;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DefaultDevice;
import org.onosproject.net.DefaultPort;
import org.onosproject.net.PortNumber;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.flow.FlowEntry;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.meter.Meter;
import org.onosproject.net.meter.MeterRequest;
import org.onosproject.net.meter.MeterServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.provider.ProviderId;
import org.onosproject.store.service.TestStorageService;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The UPF component against ONOS's test adapters: sessions become flow-rule
 * batches and indexed meter requests, an unknown device is refused before
 * anything is written, and a device that comes back gets its state again.
 */
public class UpfComponentTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final Device DEVICE = new DefaultDevice(new ProviderId("p4runtime", "test"), S1,
                                                           Device.Type.SWITCH, "", "", "", "",
                                                           new ChassisId(1));

    private final List<String> order = new CopyOnWriteArrayList<>();
    private final Rules rules = new Rules();
    private final Meters meters = new Meters();
    private final FakeDevices devices = new FakeDevices(id -> DEVICE).with(S1);
    private final FakePiTranslations translations = new FakePiTranslations(order);
    private final OnosFakes.Mastership mastership = new OnosFakes.Mastership();
    private final UpfComponent component = new UpfComponent();

    /** Confirms every batch and records its operations, and the rules applied outside one. */
    private final class Rules extends FlowRuleServiceAdapter {
        private final List<FlowRuleOperation> ops = new CopyOnWriteArrayList<>();
        private final List<FlowRule> applied = new CopyOnWriteArrayList<>();

        @Override
        public void applyFlowRules(FlowRule... flowRules) {
            List.of(flowRules).forEach(r -> order.add("apply " + r.table()));
            applied.addAll(List.of(flowRules));
        }

        // A new master's flow store that lacks the dead master's writes.
        @Override
        public Iterable<FlowEntry> getFlowEntries(DeviceId deviceId) {
            return List.of();
        }

        @Override
        public void apply(FlowRuleOperations operations) {
            operations.stages().forEach(ops::addAll);
            operations.callback().onSuccess(operations);
        }

        long added(Object table) {
            return ops.stream().filter(o -> o.type() == FlowRuleOperation.Type.ADD)
                    .map(FlowRuleOperation::rule).map(FlowRule::table).filter(table::equals).count();
        }
    }

    /** Confirms every meter request and records it. */
    private static final class Meters extends MeterServiceAdapter {
        private final List<MeterRequest> submitted = new CopyOnWriteArrayList<>();

        @Override
        public Meter submit(MeterRequest meter) {
            submitted.add(meter);
            meter.context().ifPresent(c -> c.onSuccess(meter));
            return null;
        }
    }

    @Before
    public void setUp() {
        component.coreService = new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(1, name);
            }
        };
        component.flowRuleService = rules;
        component.meterService = meters;
        component.storageService = new TestStorageService();
        component.deviceService = devices;
        component.mastershipService = mastership;
        PiPipeconf bound = FakePiTranslations.pipeconf();
        component.pipeconfService = new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconf> getPipeconf(DeviceId deviceId) {
                return Optional.of(bound);
            }
        };
        component.translationService = translations;
        component.activate();
        component.addInterface(new UpfInterface(S1, UpfInterface.Kind.ACCESS,
                                                Ip4Prefix.valueOf("10.0.0.100/32")));
        component.addInterface(new UpfInterface(S1, UpfInterface.Kind.CORE,
                                                Ip4Prefix.valueOf("10.250.0.0/16")));
    }

    @After
    public void tearDown() {
        component.deactivate();
    }

    private static PduSession session(DeviceId device, String ue) {
        return PduSession.builder().deviceId(device).ueAddress(Ip4Address.valueOf(ue))
                .n3Address(Ip4Address.valueOf("10.0.0.100")).uplinkTeid(7)
                .gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(8).qfi(9)
                .ambr(UpfMeter.of(1000, 1500, 2000, 3000)).build();
    }

    @Test
    public void aSessionIsOneFlowRuleBatchAndItsAmbrTwoIndexedMeterCells() {
        PduSession s = component.addSessions(List.of(session(S1, "10.250.0.1"))).get(0);
        assertEquals(1, rules.added(UpfP4Names.UPLINK_SESSIONS));
        assertEquals(1, rules.added(UpfP4Names.DOWNLINK_SESSIONS));
        assertEquals(1, rules.added(UpfP4Names.TUNNEL_PEERS));
        assertEquals(2, meters.submitted.size());
        for (MeterRequest r : meters.submitted) {
            assertEquals(UpfP4Names.SESSION_METER.id(), r.scope().id());
            assertEquals(Meter.Unit.BYTES_PER_SEC, r.unit());
            assertEquals(2, r.bands().size());
        }
        assertEquals(List.of(2L, 3L), meters.submitted.stream().map(r -> r.index().get()).sorted()
                .collect(java.util.stream.Collectors.toList()));
        assertEquals(s, component.session(s.id()).get());
    }

    @Test
    public void anUnknownDeviceIsRefusedBeforeAnythingIsWritten() {
        int before = rules.ops.size();
        try {
            component.addSessions(List.of(session(DeviceId.deviceId("device:s9"), "10.250.0.1")));
            fail("an unknown device was accepted");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.NOT_FOUND, e.reason());
            assertEquals("unknown device device:s9", e.getMessage());
        }
        assertEquals(before, rules.ops.size());
        assertTrue(component.sessions().isEmpty());
    }

    @Test
    public void aDeviceThatComesBackGetsItsUpfStateFromItsMaster() throws InterruptedException {
        component.addSessions(List.of(session(S1, "10.250.0.1")));
        long sessions = rules.added(UpfP4Names.UPLINK_SESSIONS);
        int cells = meters.submitted.size();
        devices.post(new DeviceEvent(DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED, DEVICE));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (meters.submitted.size() < 2 * cells && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(sessions + 1, rules.added(UpfP4Names.UPLINK_SESSIONS));
        assertEquals(2 * cells, meters.submitted.size());
        assertEquals(2, rules.added(UpfP4Names.INTERFACES) - 2);
    }

    @Test
    public void afterAnOnosRestartTheUpfEntriesAreKnownToOnosBeforeItReadsTheSwitch() {
        // ONOS restarted: its PI translation and flow stores are empty, and
        // its first read of the switch (on the availability event) deletes
        // the entries they cannot account for. UpfComponent wrote them again
        // only after that, on its worker. Now claimed on the device's first
        // event (added, before it is available), on the event's thread.
        component.addSessions(List.of(session(S1, "10.250.0.1")));
        order.clear();
        devices.post(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, DEVICE));
        List<Object> upfTables = List.of(UpfP4Names.INTERFACES, UpfP4Names.INTERFACES,
                                         UpfP4Names.TUNNEL_PEERS, UpfP4Names.UPLINK_SESSIONS,
                                         UpfP4Names.DOWNLINK_SESSIONS);
        List<Object> learnt = translations.learnt.values().stream().map(FlowRule::table)
                .collect(Collectors.toList());
        assertTrue(learnt.toString(), learnt.containsAll(upfTables));
        assertEquals(learnt.size(), rules.applied.size());
        assertEquals(new HashSet<>(translations.learnt.values()), new HashSet<>(rules.applied));
        // Every entry learnt before any is written to the flow store.
        List<String> fromFirstWrite = order.subList(
                order.indexOf("apply " + rules.applied.get(0).table()), order.size());
        assertTrue(order.toString(), fromFirstWrite.stream().noneMatch(o -> o.startsWith("learn ")));
    }

    @Test
    public void theUpfEntriesAreClaimedOnceOnly() {
        component.addSessions(List.of(session(S1, "10.250.0.1")));
        devices.post(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, DEVICE));
        int written = rules.applied.size();
        assertTrue(written > 0);
        order.clear();
        devices.post(new DeviceEvent(DeviceEvent.Type.PORT_ADDED, DEVICE,
                                     new DefaultPort(DEVICE, PortNumber.portNumber(1), true)));
        assertEquals(List.of(), order);
        assertEquals(written, rules.applied.size());
    }

    @Test
    public void aNewMasterWritesTheUpfEntriesItsFlowStoreLacks() {
        // The master died (kill -9): this instance's flow store may lack its
        // last writes, and its first read of the switch deletes what it lacks.
        component.addSessions(List.of(session(S1, "10.250.0.1")));
        devices.post(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, DEVICE));
        rules.applied.clear();
        devices.available.remove(S1);
        mastership.becomesMaster(S1);
        assertEquals(List.of(), rules.applied);
        devices.available.add(S1);
        mastership.becomesMaster(S1);
        List<Object> written = rules.applied.stream().map(FlowRule::table)
                .collect(Collectors.toList());
        assertTrue(written.toString(), written.containsAll(List.of(
                UpfP4Names.INTERFACES, UpfP4Names.TUNNEL_PEERS, UpfP4Names.UPLINK_SESSIONS,
                UpfP4Names.DOWNLINK_SESSIONS)));
    }

    @Test
    public void onlyTheMasterClaimsTheUpfEntries() {
        component.addSessions(List.of(session(S1, "10.250.0.1")));
        mastership.master = false;
        devices.post(new DeviceEvent(DeviceEvent.Type.DEVICE_ADDED, DEVICE));
        assertTrue(translations.learnt.isEmpty());
        assertTrue(rules.applied.isEmpty());
    }
}
