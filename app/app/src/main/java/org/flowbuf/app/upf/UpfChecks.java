/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.pipeconf.UpfP4Names;
import org.onlab.packet.Ip4Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The checks of a UPF change against what the device already has, with the
 * allocation of sessions' cells and tunnel peers. Nothing here writes.
 */
final class UpfChecks {

    /** Interfaces a device holds (UPF_MAX_INTERFACES). */
    static final int MAX_INTERFACES = 64;
    /** Slots: a session uses cells 2s and 2s + 1 of UPF_INDEX_CELLS; cells 0 and 1 mean none. */
    static final int MAX_SLOT = UpfP4Names.INDEX_CELLS / 2 - 1;
    /** Tunnel peer ids (UPF_MAX_TUNNEL_PEERS entries; id 0 unused). */
    static final int MAX_PEER = 1023;
    /** Firewall rules a device holds (UPF_MAX_FIREWALL_RULES). */
    static final int MAX_FIREWALL_RULES = 1024;

    private final UpfStore store;
    private final Predicate<DeviceId> knownDevice;

    UpfChecks(UpfStore store, Predicate<DeviceId> knownDevice) {
        this.store = Objects.requireNonNull(store);
        this.knownDevice = Objects.requireNonNull(knownDevice);
    }

    void device(DeviceId deviceId) {
        if (!knownDevice.test(deviceId)) {
            throw FlowBufException.notFound("unknown device %s", deviceId);
        }
    }

    private List<UpfInterface> interfaces(DeviceId deviceId, UpfInterface.Kind kind) {
        return store.interfaces().stream()
                .filter(i -> i.deviceId().equals(deviceId) && i.kind() == kind)
                .collect(Collectors.toList());
    }

    void newInterface(UpfInterface iface) {
        device(iface.deviceId());
        List<UpfInterface> all = store.interfaces().stream()
                .filter(i -> i.deviceId().equals(iface.deviceId())).collect(Collectors.toList());
        for (UpfInterface other : all) {
            if (other.prefix().contains(iface.prefix()) || iface.prefix().contains(other.prefix())) {
                throw FlowBufException.conflict("%s overlaps %s", iface, other);
            }
        }
        if (all.size() >= MAX_INTERFACES) {
            throw new FlowBufException(FlowBufException.Reason.EXHAUSTED, String.format(
                    "%s has %d UPF interfaces, the most it holds", iface.deviceId(), all.size()));
        }
    }

    void removableInterface(UpfInterface iface) {
        if (!store.interfaces().contains(iface)) {
            throw FlowBufException.notFound("no interface %s", iface);
        }
        for (UpfSessionRecord r : store.sessions()) {
            PduSession s = r.session();
            boolean uses = s.deviceId().equals(iface.deviceId())
                    && (iface.kind() == UpfInterface.Kind.ACCESS
                    ? iface.prefix().address().equals(s.n3Address())
                    : iface.prefix().contains(s.ueAddress()));
            if (uses) {
                throw FlowBufException.conflict("session %d (UE %s) uses %s: remove it first",
                                                s.id(), s.ueAddress(), iface);
            }
        }
    }

    /**
     * Checks new sessions of one device against its interfaces, its sessions
     * and each other, and allocates their slots and tunnel peers.
     *
     * @param deviceId the device
     * @param sessions its new sessions
     * @return their allocation
     */
    DeviceAllocation newSessions(DeviceId deviceId, List<PduSession> sessions) {
        device(deviceId);
        List<UpfInterface> access = interfaces(deviceId, UpfInterface.Kind.ACCESS);
        List<UpfInterface> pools = interfaces(deviceId, UpfInterface.Kind.CORE);
        Map<Ip4Address, Long> ues = new HashMap<>();
        Map<String, Long> teids = new HashMap<>();
        BitSet slots = new BitSet();
        Map<TunnelPeer, Integer> peers = new HashMap<>();
        BitSet peerIds = new BitSet();
        for (UpfSessionRecord r : store.sessions()) {
            if (r.session().deviceId().equals(deviceId)) {
                ues.put(r.session().ueAddress(), r.session().id());
                teids.put(teidKey(r.session()), r.session().id());
                slots.set(r.slot());
                peers.put(TunnelPeer.of(r.session()), r.tunnelPeer());
                peerIds.set(r.tunnelPeer());
            }
        }
        DeviceAllocation alloc = new DeviceAllocation();
        int index = 0;
        for (PduSession s : sessions) {
            String which = sessions.size() == 1 ? "session" : "session " + index + " (UE "
                    + s.ueAddress() + ")";
            index++;
            if (access.stream().noneMatch(i -> i.prefix().address().equals(s.n3Address()))) {
                throw FlowBufException.invalid(
                        "%s: n3Address %s is not an N3 address of %s (its N3 addresses: %s; add "
                                + "one with POST upf/interfaces)", which, s.n3Address(), deviceId,
                        access.stream().map(i -> i.prefix().address().toString())
                                .collect(Collectors.toList()));
            }
            if (pools.stream().noneMatch(i -> i.prefix().contains(s.ueAddress()))) {
                throw FlowBufException.invalid(
                        "%s: ueAddress %s is in no UE pool of %s (its pools: %s; add one with "
                                + "POST upf/interfaces)", which, s.ueAddress(), deviceId,
                        pools.stream().map(i -> i.prefix().toString()).collect(Collectors.toList()));
            }
            Long other = ues.putIfAbsent(s.ueAddress(), 0L);
            if (other != null) {
                throw FlowBufException.conflict("%s: UE %s already has %s on %s", which,
                                                s.ueAddress(), other == 0 ? "a session in this "
                                                        + "request" : "session " + other, deviceId);
            }
            other = teids.putIfAbsent(teidKey(s), 0L);
            if (other != null) {
                throw FlowBufException.conflict(
                        "%s: uplink TEID %d (0x%x) is already used on N3 address %s by %s", which,
                        s.uplinkTeid(), s.uplinkTeid(), s.n3Address(),
                        other == 0 ? "another session in this request" : "session " + other);
            }
            int slot = slots.nextClearBit(1);
            if (slot > MAX_SLOT) {
                throw exhausted("%s holds %d sessions, the most its counter cells allow",
                                deviceId, MAX_SLOT);
            }
            slots.set(slot);
            TunnelPeer peer = TunnelPeer.of(s);
            Integer peerId = peers.get(peer);
            if (peerId == null) {
                peerId = peerIds.nextClearBit(1);
                if (peerId > MAX_PEER) {
                    throw exhausted("%s has %d tunnel peers (N3 address, gNodeB, port), the "
                                            + "most it holds", deviceId, MAX_PEER);
                }
                peerIds.set(peerId);
                peers.put(peer, peerId);
                alloc.addPeer(peer, peerId);
            }
            alloc.assign(s, slot, peerId);
        }
        return alloc;
    }

    void newApplication(UpfApplication app, ApplicationId appId) {
        device(app.deviceId());
        FlowRule entry = UpfEntries.applicationRule(appId, app);
        for (UpfApplication other : store.applications()) {
            if (!other.deviceId().equals(app.deviceId())) {
                continue;
            }
            if (other.appId() == app.appId()) {
                throw FlowBufException.conflict("application %d exists on %s", app.appId(),
                                                app.deviceId());
            }
            if (sameKey(entry, UpfEntries.applicationRule(appId, other))) {
                throw FlowBufException.conflict("application %d has the same filter and priority",
                                                other.appId());
            }
        }
    }

    void newFirewallRule(FirewallRule rule, ApplicationId appId) {
        device(rule.deviceId());
        FlowRule entry = UpfEntries.firewallRule(appId, rule);
        int count = 0;
        for (FirewallRule other : store.firewallRules()) {
            if (!other.deviceId().equals(rule.deviceId())) {
                continue;
            }
            count++;
            if (sameKey(entry, UpfEntries.firewallRule(appId, other))) {
                throw FlowBufException.conflict("firewall rule %d has the same direction, filter "
                                                        + "and priority", other.id());
            }
        }
        if (count >= MAX_FIREWALL_RULES) {
            throw exhausted("%s has %d firewall rules, the most it holds", rule.deviceId(), count);
        }
    }

    private static boolean sameKey(FlowRule a, FlowRule b) {
        return a.priority() == b.priority() && a.selector().equals(b.selector());
    }

    private static String teidKey(PduSession s) {
        return s.n3Address() + "/" + s.uplinkTeid();
    }

    private static FlowBufException exhausted(String format, Object... args) {
        return new FlowBufException(FlowBufException.Reason.EXHAUSTED, String.format(format, args));
    }
}
