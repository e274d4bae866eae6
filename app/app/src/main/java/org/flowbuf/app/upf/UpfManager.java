/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.task.StripedTurns;
import com.google.common.util.concurrent.Striped;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.IpPrefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.FlowRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The UPF service on one writer and one store: checks each change against
 * the device's state (UpfChecks), allocates its cells and tunnel peers,
 * writes its entries (UpfEntries) and only then stores it. A refused write
 * leaves both the device and the store as they were.
 *
 * <p>Per-device turns instead of a manager lock: a change runs in the turn
 * of the device it writes to (a Guava striped lock; a batch of sessions on
 * several devices takes their turns together), because the sessions of a
 * device share what the checks allocate and the writes change there (UE
 * addresses, TEIDs, counter cells, tunnel peers, each application's
 * terminations of every session). Changes of different devices run in
 * parallel with their writes; reads take no turn.
 */
public final class UpfManager implements UpfService {

    /** Owner of the buffers that hold UEs' downlinks. */
    public static final String OWNER = "org.flowbuf.upf";

    private static final Logger LOG = LoggerFactory.getLogger(UpfManager.class);

    private final ApplicationId appId;
    private final UpfStore store;
    private final UpfWriter writer;
    private final UpfChecks checks;
    private final FlowBufIntentService intents;
    private final BufferService buffers;
    private final Striped<Lock> deviceTurns = Striped.lazyWeakLock(256);

    /**
     * Creates the manager.
     *
     * @param appId       owner of the entries
     * @param store       where the model is kept
     * @param writer      how entries reach the devices
     * @param knownDevice whether a device exists (and runs the FlowBuf pipeconf)
     */
    public UpfManager(ApplicationId appId, UpfStore store, UpfWriter writer,
                      Predicate<DeviceId> knownDevice) {
        this(appId, store, writer, knownDevice, null, null);
    }

    /**
     * Creates the manager with the Buffer Service, for pause and resume of
     * a UE's downlink.
     *
     * @param appId       owner of the entries
     * @param store       where the model is kept
     * @param writer      how entries reach the devices
     * @param knownDevice whether a device exists (and runs the FlowBuf pipeconf)
     * @param intents     the intent-level Buffer Service (null: no pause and resume)
     * @param buffers     the task-level Buffer Service (null: no pause and resume)
     */
    public UpfManager(ApplicationId appId, UpfStore store, UpfWriter writer,
                      Predicate<DeviceId> knownDevice, FlowBufIntentService intents,
                      BufferService buffers) {
        this.appId = Objects.requireNonNull(appId);
        this.store = Objects.requireNonNull(store);
        this.writer = Objects.requireNonNull(writer);
        this.checks = new UpfChecks(store, knownDevice);
        this.intents = intents;
        this.buffers = buffers;
    }

    private <T> T onDevice(DeviceId deviceId, Supplier<T> change) {
        return StripedTurns.inTurn(deviceTurns, deviceId, change);
    }

    // ---- interfaces ----

    @Override
    public Collection<UpfInterface> interfaces() {
        return store.interfaces();
    }

    @Override
    public UpfInterface addInterface(UpfInterface iface) {
        return onDevice(iface.deviceId(), () -> addInterfaceInTurn(iface));
    }

    private UpfInterface addInterfaceInTurn(UpfInterface iface) {
        checks.newInterface(iface);
        UpfWrite write = new UpfWrite();
        write.inserts().add(UpfEntries.interfaceRule(appId, iface));
        writer.write(iface.deviceId(), write);
        store.putInterface(iface);
        return iface;
    }

    @Override
    public void removeInterface(UpfInterface iface) {
        onDevice(iface.deviceId(), () -> {
            removeInterfaceInTurn(iface);
            return null;
        });
    }

    private void removeInterfaceInTurn(UpfInterface iface) {
        checks.removableInterface(iface);
        UpfWrite write = new UpfWrite();
        write.removes().add(UpfEntries.interfaceRule(appId, iface));
        writer.write(iface.deviceId(), write);
        store.removeInterface(iface);
    }

    // ---- sessions ----

    @Override
    public Collection<PduSession> sessions() {
        return store.sessions().stream().map(UpfSessionRecord::session)
                .collect(Collectors.toList());
    }

    @Override
    public Optional<PduSession> session(long id) {
        return store.session(id).map(UpfSessionRecord::session);
    }

    @Override
    public Optional<PduSession> session(Optional<DeviceId> deviceId, Ip4Address ueAddress) {
        return store.sessions().stream().map(UpfSessionRecord::session)
                .filter(s -> s.ueAddress().equals(ueAddress))
                .filter(s -> deviceId.isEmpty() || s.deviceId().equals(deviceId.get()))
                .findFirst();
    }

    @Override
    public List<PduSession> addSessions(List<PduSession> sessions) {
        if (sessions == null || sessions.isEmpty()) {
            throw FlowBufException.invalid("no sessions given");
        }
        List<Object> devices = sessions.stream().map(PduSession::deviceId).distinct()
                .collect(Collectors.toList());
        return StripedTurns.inTurns(deviceTurns, devices, () -> addSessionsInTurn(sessions));
    }

    private List<PduSession> addSessionsInTurn(List<PduSession> sessions) {
        Map<DeviceId, List<PduSession>> byDevice = new LinkedHashMap<>();
        sessions.forEach(s -> byDevice.computeIfAbsent(s.deviceId(), d -> new ArrayList<>()).add(s));
        Map<PduSession, UpfSessionRecord> planned = new LinkedHashMap<>();
        Map<DeviceId, UpfWrite> writes = new LinkedHashMap<>();
        for (Map.Entry<DeviceId, List<PduSession>> e : byDevice.entrySet()) {
            DeviceAllocation alloc = checks.newSessions(e.getKey(), e.getValue());
            UpfWrite write = new UpfWrite();
            alloc.newPeers().forEach((peer, id) -> write.inserts()
                    .add(UpfEntries.tunnelPeerRule(appId, e.getKey(), id, peer)));
            List<UpfApplication> apps = applications(e.getKey());
            for (PduSession s : e.getValue()) {
                UpfSessionRecord record = new UpfSessionRecord(s.toBuilder().id(store.nextId()).build(),
                                                               alloc.slot(s), alloc.peer(s));
                planned.put(s, record);
                addSessionEntries(write, record, apps);
            }
            writes.put(e.getKey(), write);
        }
        writeAll(writes);
        store.putSessions(planned.values());
        return sessions.stream().map(s -> planned.get(s).session()).collect(Collectors.toList());
    }

    private void addSessionEntries(UpfWrite write, UpfSessionRecord record,
                                   List<UpfApplication> apps) {
        write.inserts().addAll(UpfEntries.sessionRules(appId, record));
        apps.forEach(a -> write.inserts().addAll(UpfEntries.applicationTerminations(appId, record, a)));
        write.meters().addAll(UpfEntries.sessionMeters(record, false));
    }

    // One write per device; when a later device refuses, the earlier ones are undone.
    private void writeAll(Map<DeviceId, UpfWrite> writes) {
        List<DeviceId> done = new ArrayList<>();
        for (Map.Entry<DeviceId, UpfWrite> e : writes.entrySet()) {
            try {
                writer.write(e.getKey(), e.getValue());
                done.add(e.getKey());
            } catch (FlowBufException refused) {
                for (DeviceId device : done) {
                    undo(device, writes.get(device));
                }
                throw refused;
            }
        }
    }

    private void undo(DeviceId device, UpfWrite applied) {
        UpfWrite undo = new UpfWrite();
        undo.removes().addAll(applied.inserts());
        applied.meters().forEach(c -> undo.meters().add(new MeterCell(c.meterId(), c.index(), null)));
        try {
            writer.write(device, undo);
        } catch (FlowBufException e) {
            LOG.warn("{}: could not undo a partly applied UPF write: {}", device, e.getMessage());
        }
    }

    @Override
    public PduSession removeSession(long id) {
        UpfSessionRecord found = store.session(id).orElseThrow(
                () -> FlowBufException.notFound("no session %d", id));
        return onDevice(found.session().deviceId(), () -> removeSessionInTurn(id));
    }

    // Looked up again in the turn: another removal may have taken it meanwhile.
    private PduSession removeSessionInTurn(long id) {
        UpfSessionRecord record = store.session(id).orElseThrow(
                () -> FlowBufException.notFound("no session %d", id));
        DeviceId device = record.session().deviceId();
        UpfWrite write = new UpfWrite();
        write.removes().addAll(UpfEntries.sessionRules(appId, record));
        applications(device).forEach(a -> write.removes()
                .addAll(UpfEntries.applicationTerminations(appId, record, a)));
        boolean peerShared = store.sessions().stream()
                .anyMatch(r -> r.session().id() != id && r.session().deviceId().equals(device)
                        && r.tunnelPeer() == record.tunnelPeer());
        if (!peerShared) {
            write.removes().add(UpfEntries.tunnelPeerRule(appId, device, record.tunnelPeer(),
                                                          TunnelPeer.of(record.session())));
        }
        write.meters().addAll(UpfEntries.sessionMeters(record, true));
        writer.write(device, write);
        store.removeSession(id);
        return record.session();
    }

    // ---- applications ----

    @Override
    public Collection<UpfApplication> applications() {
        return store.applications();
    }

    private List<UpfApplication> applications(DeviceId device) {
        return store.applications().stream().filter(a -> a.deviceId().equals(device))
                .collect(Collectors.toList());
    }

    @Override
    public UpfApplication addApplication(UpfApplication app) {
        return onDevice(app.deviceId(), () -> addApplicationInTurn(app));
    }

    private UpfApplication addApplicationInTurn(UpfApplication app) {
        checks.newApplication(app, appId);
        UpfWrite write = new UpfWrite();
        write.inserts().add(UpfEntries.applicationRule(appId, app));
        sessionRecords(app.deviceId()).forEach(r -> write.inserts()
                .addAll(UpfEntries.applicationTerminations(appId, r, app)));
        write.meters().addAll(UpfEntries.applicationMeters(app, false));
        writer.write(app.deviceId(), write);
        store.putApplication(app);
        return app;
    }

    @Override
    public UpfApplication removeApplication(DeviceId deviceId, int upfAppId) {
        return onDevice(deviceId, () -> removeApplicationInTurn(deviceId, upfAppId));
    }

    private UpfApplication removeApplicationInTurn(DeviceId deviceId, int upfAppId) {
        UpfApplication app = applications(deviceId).stream().filter(a -> a.appId() == upfAppId)
                .findFirst().orElseThrow(() -> FlowBufException.notFound(
                        "no application %d on %s", upfAppId, deviceId));
        UpfWrite write = new UpfWrite();
        write.removes().add(UpfEntries.applicationRule(appId, app));
        sessionRecords(deviceId).forEach(r -> write.removes()
                .addAll(UpfEntries.applicationTerminations(appId, r, app)));
        write.meters().addAll(UpfEntries.applicationMeters(app, true));
        writer.write(deviceId, write);
        store.removeApplication(deviceId, upfAppId);
        return app;
    }

    private List<UpfSessionRecord> sessionRecords(DeviceId device) {
        return store.sessions().stream().filter(r -> r.session().deviceId().equals(device))
                .collect(Collectors.toList());
    }

    // ---- firewall ----

    @Override
    public Collection<FirewallRule> firewallRules() {
        return store.firewallRules();
    }

    @Override
    public FirewallRule addFirewallRule(FirewallRule rule) {
        return onDevice(rule.deviceId(), () -> addFirewallRuleInTurn(rule));
    }

    private FirewallRule addFirewallRuleInTurn(FirewallRule rule) {
        checks.newFirewallRule(rule, appId);
        FirewallRule stored = rule.withId(store.nextId());
        UpfWrite write = new UpfWrite();
        write.inserts().add(UpfEntries.firewallRule(appId, stored));
        writer.write(rule.deviceId(), write);
        store.putFirewallRule(stored);
        return stored;
    }

    @Override
    public FirewallRule removeFirewallRule(long id) {
        return onDevice(firewallRule(id).deviceId(), () -> removeFirewallRuleInTurn(id));
    }

    private FirewallRule firewallRule(long id) {
        return store.firewallRules().stream().filter(r -> r.id() == id).findFirst()
                .orElseThrow(() -> FlowBufException.notFound("no firewall rule %d", id));
    }

    private FirewallRule removeFirewallRuleInTurn(long id) {
        FirewallRule rule = firewallRule(id);
        UpfWrite write = new UpfWrite();
        write.removes().add(UpfEntries.firewallRule(appId, rule));
        writer.write(rule.deviceId(), write);
        store.removeFirewallRule(id);
        return rule;
    }

    // ---- QFI -> queue ----

    @Override
    public Collection<UpfQueue> queues() {
        return store.queues();
    }

    @Override
    public UpfQueue setQueue(UpfQueue queue) {
        return onDevice(queue.deviceId(), () -> setQueueInTurn(queue));
    }

    private UpfQueue setQueueInTurn(UpfQueue queue) {
        checks.device(queue.deviceId());
        Optional<UpfQueue> earlier = store.queues().stream()
                .filter(q -> q.deviceId().equals(queue.deviceId()) && q.qfi() == queue.qfi())
                .findFirst();
        UpfWrite write = new UpfWrite();
        earlier.ifPresent(q -> write.removes().add(UpfEntries.queueRule(appId, q)));
        write.inserts().add(UpfEntries.queueRule(appId, queue));
        writer.write(queue.deviceId(), write);
        store.putQueue(queue);
        return queue;
    }

    @Override
    public void removeQueue(DeviceId deviceId, int qfi) {
        onDevice(deviceId, () -> {
            removeQueueInTurn(deviceId, qfi);
            return null;
        });
    }

    private void removeQueueInTurn(DeviceId deviceId, int qfi) {
        UpfQueue queue = store.queues().stream()
                .filter(q -> q.deviceId().equals(deviceId) && q.qfi() == qfi).findFirst()
                .orElseThrow(() -> FlowBufException.notFound("QFI %d has no queue on %s", qfi,
                                                             deviceId));
        UpfWrite write = new UpfWrite();
        write.removes().add(UpfEntries.queueRule(appId, queue));
        writer.write(deviceId, write);
        store.removeQueue(deviceId, qfi);
    }

    // ---- holding a UE's downlink ----

    @Override
    public FlowBufIntent pauseDownlink(long sessionId, PortNumber inPort) {
        PduSession s = sessionOrNotFound(sessionId);
        return bufferService().pause(s.deviceId(), inPort, toUe(s), Optional.empty(), OWNER);
    }

    @Override
    public Buffer resumeDownlink(long sessionId) {
        PduSession s = sessionOrNotFound(sessionId);
        bufferService();
        FlowFilter toUe = toUe(s);
        BufferId held = intents.getIntents().stream()
                .filter(i -> isInstalledPause(i) && i.deviceId().equals(s.deviceId())
                        && i.filter().withoutInPort().equals(toUe))
                .map(FlowBufIntent::bufferId).flatMap(Optional::stream).findFirst()
                .orElseThrow(() -> FlowBufException.notFound("the downlink of UE %s is not paused",
                                                             s.ueAddress()));
        // No replay rule: what the buffer sends goes on through the pipeline
        // (the UPF encapsulates it); the pause rule keeps taking new packets
        // into the buffer behind the held ones.
        return buffers.moveBuffer(s.deviceId(), held, OWNER, BufferState.FORWARDING);
    }

    @Override
    public List<UpfDeviceSummary> deviceSummaries() {
        Map<DeviceId, Set<FlowFilter>> holding = holdingPauses();
        Map<DeviceId, int[]> counts = new TreeMap<>(Comparator.comparing(DeviceId::toString));
        for (PduSession s : sessions()) {
            int[] c = counts.computeIfAbsent(s.deviceId(), d -> new int[2]);
            c[0]++;
            if (holding.getOrDefault(s.deviceId(), Set.of()).contains(toUe(s))) {
                c[1]++;
            }
        }
        List<UpfDeviceSummary> summaries = new ArrayList<>();
        counts.forEach((device, c) -> summaries.add(new UpfDeviceSummary(device, c[0], c[1])));
        return summaries;
    }

    /**
     * The filters of installed pauses whose buffer is holding (BUFFERING: a
     * resumed downlink keeps its pause rule while its buffer forwards), by
     * device; each device's buffers are read once.
     */
    private Map<DeviceId, Set<FlowFilter>> holdingPauses() {
        Map<DeviceId, Set<FlowFilter>> paused = new HashMap<>();
        if (intents == null || buffers == null) {
            return paused;
        }
        Map<DeviceId, Set<BufferId>> buffering = new HashMap<>();
        for (FlowBufIntent i : intents.getIntents()) {
            if (isInstalledPause(i) && i.bufferId().isPresent() && buffering
                    .computeIfAbsent(i.deviceId(), this::bufferingIds).contains(i.bufferId().get())) {
                paused.computeIfAbsent(i.deviceId(), d -> new HashSet<>()).add(i.filter().withoutInPort());
            }
        }
        return paused;
    }

    private Set<BufferId> bufferingIds(DeviceId deviceId) {
        return buffers.getBuffers(deviceId).stream().filter(b -> b.state() == BufferState.BUFFERING)
                .map(Buffer::id).collect(Collectors.toSet());
    }

    private static boolean isInstalledPause(FlowBufIntent i) {
        return i.type() == FlowBufIntent.Type.PAUSE && i.state() == FlowBufIntent.State.INSTALLED;
    }

    private PduSession sessionOrNotFound(long id) {
        return session(id).orElseThrow(() -> FlowBufException.notFound("no session %d", id));
    }

    private FlowBufIntentService bufferService() {
        if (intents == null || buffers == null) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "pause and resume need the Buffer Service");
        }
        return intents;
    }

    private static FlowFilter toUe(PduSession s) {
        return FlowFilter.builder().ipv4Dst(IpPrefix.valueOf(s.ueAddress(), 32)).build();
    }

    // ---- after a reconnect ----

    @Override
    public int reinstall(DeviceId deviceId) {
        return onDevice(deviceId, () -> reinstallInTurn(deviceId));
    }

    /**
     * The device's UPF entries, as they are written now (read without the
     * device's turn: a change in flight writes its own).
     *
     * @param deviceId device
     * @return its entries
     */
    public List<FlowRule> entries(DeviceId deviceId) {
        return stateOf(deviceId).inserts();
    }

    private int reinstallInTurn(DeviceId deviceId) {
        UpfWrite write = stateOf(deviceId);
        if (!write.isEmpty()) {
            writer.rewrite(deviceId, write);
        }
        return write.size();
    }

    /** Everything of the device's UPF state: its entries and meter cells. */
    private UpfWrite stateOf(DeviceId deviceId) {
        UpfWrite write = new UpfWrite();
        store.interfaces().stream().filter(i -> i.deviceId().equals(deviceId))
                .forEach(i -> write.inserts().add(UpfEntries.interfaceRule(appId, i)));
        List<UpfSessionRecord> records = sessionRecords(deviceId);
        Map<Integer, TunnelPeer> peers = new LinkedHashMap<>();
        records.forEach(r -> peers.putIfAbsent(r.tunnelPeer(), TunnelPeer.of(r.session())));
        peers.forEach((id, peer) -> write.inserts()
                .add(UpfEntries.tunnelPeerRule(appId, deviceId, id, peer)));
        List<UpfApplication> apps = applications(deviceId);
        for (UpfApplication app : apps) {
            write.inserts().add(UpfEntries.applicationRule(appId, app));
            write.meters().addAll(UpfEntries.applicationMeters(app, false));
        }
        records.forEach(r -> addSessionEntries(write, r, apps));
        store.firewallRules().stream().filter(r -> r.deviceId().equals(deviceId))
                .forEach(r -> write.inserts().add(UpfEntries.firewallRule(appId, r)));
        store.queues().stream().filter(q -> q.deviceId().equals(deviceId))
                .forEach(q -> write.inserts().add(UpfEntries.queueRule(appId, q)));
        return write;
    }
}
