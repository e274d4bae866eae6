/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDirection;
import org.flowbuf.api.upf.UpfFilter;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfQueue;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.DefaultFlowRule;
import org.onosproject.net.flow.DefaultTrafficSelector;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.criteria.PiCriterion;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

import java.util.ArrayList;
import java.util.List;

import static org.flowbuf.pipeconf.UpfP4Names.APPLICATIONS;
import static org.flowbuf.pipeconf.UpfP4Names.APP_ID;
import static org.flowbuf.pipeconf.UpfP4Names.APP_ID_DEFAULT;
import static org.flowbuf.pipeconf.UpfP4Names.APP_METER;
import static org.flowbuf.pipeconf.UpfP4Names.CTR_IDX;
import static org.flowbuf.pipeconf.UpfP4Names.DIRECTION_DOWNLINK;
import static org.flowbuf.pipeconf.UpfP4Names.DIRECTION_UPLINK;
import static org.flowbuf.pipeconf.UpfP4Names.DOWNLINK_SESSIONS;
import static org.flowbuf.pipeconf.UpfP4Names.DOWNLINK_TERMINATIONS;
import static org.flowbuf.pipeconf.UpfP4Names.DOWNLINK_TERM_FWD;
import static org.flowbuf.pipeconf.UpfP4Names.DST_ADDR;
import static org.flowbuf.pipeconf.UpfP4Names.FIREWALL;
import static org.flowbuf.pipeconf.UpfP4Names.FIREWALL_ALLOW;
import static org.flowbuf.pipeconf.UpfP4Names.FIREWALL_DENY;
import static org.flowbuf.pipeconf.UpfP4Names.IFACE_ACCESS;
import static org.flowbuf.pipeconf.UpfP4Names.IFACE_CORE;
import static org.flowbuf.pipeconf.UpfP4Names.INTERFACES;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_APP_ADDR;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_APP_ID;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_APP_PORT;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_DIRECTION;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_IPV4_DST;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_IP_PROTO;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_N3_ADDR;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_QFI;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_TEID;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_TUNNEL_PEER_ID;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_UE_ADDR;
import static org.flowbuf.pipeconf.UpfP4Names.KEY_UE_PORT;
import static org.flowbuf.pipeconf.UpfP4Names.METER_IDX;
import static org.flowbuf.pipeconf.UpfP4Names.PRIORITY;
import static org.flowbuf.pipeconf.UpfP4Names.QFI;
import static org.flowbuf.pipeconf.UpfP4Names.QUEUES;
import static org.flowbuf.pipeconf.UpfP4Names.SESSION_METER;
import static org.flowbuf.pipeconf.UpfP4Names.SET_APP_ID;
import static org.flowbuf.pipeconf.UpfP4Names.SET_QUEUE;
import static org.flowbuf.pipeconf.UpfP4Names.SET_DOWNLINK_SESSION;
import static org.flowbuf.pipeconf.UpfP4Names.SET_TUNNEL_PEER;
import static org.flowbuf.pipeconf.UpfP4Names.SET_UPLINK_SESSION;
import static org.flowbuf.pipeconf.UpfP4Names.SPORT;
import static org.flowbuf.pipeconf.UpfP4Names.SRC_ADDR;
import static org.flowbuf.pipeconf.UpfP4Names.TEID;
import static org.flowbuf.pipeconf.UpfP4Names.TUNNEL_PEERS;
import static org.flowbuf.pipeconf.UpfP4Names.TUNNEL_PEER_ID;
import static org.flowbuf.pipeconf.UpfP4Names.UPLINK_SESSIONS;
import static org.flowbuf.pipeconf.UpfP4Names.UPLINK_TERMINATIONS;
import static org.flowbuf.pipeconf.UpfP4Names.UPLINK_TERM_FWD;

/**
 * The pipeline's UPF entries (upf.p4, firewall.p4) of the UPF model, as PI
 * flow rules, and its meter cells. Pure: the same input always gives equal
 * rules, so a removal rebuilds exactly what was installed. Every value is
 * given as a long (ONOS and the host fit it to the p4info's widths).
 *
 * <p>A session on slot s uses cell 2s (uplink) and 2s + 1 (downlink) of the
 * session and termination counters and of the session meter; its
 * terminations for the applications count in the session's termination
 * cells. An application's meter is app_meter cell appId, shared by all the
 * UEs of the device.
 */
public final class UpfEntries {

    /** Priority of the entries of tables without ternary or range fields (ignored there). */
    static final int EXACT_PRIORITY = FlowRule.MIN_PRIORITY;
    private static final long ADDRESS_MASK = 0xFFFF_FFFFL;
    private static final long DIRECTION_MASK = 0b11;
    private static final long PROTO_MASK = 0xFF;

    private UpfEntries() {
    }

    /**
     * The interfaces entry.
     *
     * @param appId owner
     * @param iface interface
     * @return rule
     */
    public static FlowRule interfaceRule(ApplicationId appId, UpfInterface iface) {
        PiCriterion match = PiCriterion.builder()
                .matchLpm(KEY_IPV4_DST, address(iface.prefix().address()),
                          iface.prefix().prefixLength()).build();
        PiActionId action = iface.kind() == UpfInterface.Kind.ACCESS ? IFACE_ACCESS : IFACE_CORE;
        return rule(appId, iface.deviceId(), INTERFACES, EXACT_PRIORITY, match,
                    PiAction.builder().withId(action).build());
    }

    /**
     * A session's own entries: its sessions both ways and its default
     * terminations (application 0).
     *
     * @param appId  owner
     * @param record the session
     * @return rules
     */
    public static List<FlowRule> sessionRules(ApplicationId appId, UpfSessionRecord record) {
        PduSession s = record.session();
        DeviceId device = s.deviceId();
        long upMeter = s.ambr().isPresent() ? record.uplinkCell() : 0;
        long downMeter = s.ambr().isPresent() ? record.downlinkCell() : 0;
        List<FlowRule> rules = new ArrayList<>();
        rules.add(rule(appId, device, UPLINK_SESSIONS, EXACT_PRIORITY,
                       PiCriterion.builder().matchExact(KEY_N3_ADDR, address(s.n3Address()))
                               .matchExact(KEY_TEID, s.uplinkTeid()).build(),
                       PiAction.builder().withId(SET_UPLINK_SESSION)
                               .withParameter(new PiActionParam(CTR_IDX, (long) record.uplinkCell()))
                               .withParameter(new PiActionParam(METER_IDX, upMeter)).build()));
        rules.add(rule(appId, device, DOWNLINK_SESSIONS, EXACT_PRIORITY,
                       PiCriterion.builder().matchExact(KEY_UE_ADDR, address(s.ueAddress())).build(),
                       PiAction.builder().withId(SET_DOWNLINK_SESSION)
                               .withParameter(new PiActionParam(CTR_IDX,
                                                                (long) record.downlinkCell()))
                               .withParameter(new PiActionParam(METER_IDX, downMeter))
                               .withParameter(new PiActionParam(TUNNEL_PEER_ID,
                                                                (long) record.tunnelPeer()))
                               .build()));
        rules.addAll(terminations(appId, record, APP_ID_DEFAULT, s.qfi(), 0));
        return rules;
    }

    /**
     * A session's terminations for one application.
     *
     * @param appId  owner
     * @param record the session
     * @param app    the application
     * @return the uplink and the downlink termination
     */
    public static List<FlowRule> applicationTerminations(ApplicationId appId,
                                                         UpfSessionRecord record,
                                                         UpfApplication app) {
        return terminations(appId, record, app.appId(), app.qfi(),
                            app.meter().isPresent() ? app.appId() : 0);
    }

    private static List<FlowRule> terminations(ApplicationId appId, UpfSessionRecord record,
                                               int upfAppId, int qfi, long meterIdx) {
        PduSession s = record.session();
        PiCriterion match = PiCriterion.builder()
                .matchExact(KEY_UE_ADDR, address(s.ueAddress()))
                .matchExact(KEY_APP_ID, (long) upfAppId).build();
        FlowRule up = rule(appId, s.deviceId(), UPLINK_TERMINATIONS, EXACT_PRIORITY, match,
                           PiAction.builder().withId(UPLINK_TERM_FWD)
                                   .withParameter(new PiActionParam(CTR_IDX,
                                                                    (long) record.uplinkCell()))
                                   .withParameter(new PiActionParam(METER_IDX, meterIdx))
                                   .withParameter(new PiActionParam(QFI, (long) qfi)).build());
        FlowRule down = rule(appId, s.deviceId(), DOWNLINK_TERMINATIONS, EXACT_PRIORITY, match,
                             PiAction.builder().withId(DOWNLINK_TERM_FWD)
                                     .withParameter(new PiActionParam(CTR_IDX,
                                                                      (long) record.downlinkCell()))
                                     .withParameter(new PiActionParam(METER_IDX, meterIdx))
                                     .withParameter(new PiActionParam(TEID, s.downlinkTeid()))
                                     .withParameter(new PiActionParam(QFI, (long) qfi)).build());
        return List.of(up, down);
    }

    /**
     * The tunnel peer entry of a gNodeB.
     *
     * @param appId  owner
     * @param device device
     * @param peerId the peer's id on the device
     * @param peer   the peer: outer source (N3) and destination (gNodeB), UDP source port
     * @return rule
     */
    public static FlowRule tunnelPeerRule(ApplicationId appId, DeviceId device, int peerId,
                                          TunnelPeer peer) {
        return rule(appId, device, TUNNEL_PEERS, EXACT_PRIORITY,
                    PiCriterion.builder().matchExact(KEY_TUNNEL_PEER_ID, (long) peerId).build(),
                    PiAction.builder().withId(SET_TUNNEL_PEER)
                            .withParameter(new PiActionParam(SRC_ADDR, address(peer.n3Address())))
                            .withParameter(new PiActionParam(DST_ADDR, address(peer.gnbAddress())))
                            .withParameter(new PiActionParam(SPORT, (long) peer.port())).build());
    }

    /**
     * A session's AMBR cells (none without an AMBR).
     *
     * @param record the session
     * @param reset  true for the cells back to unconfigured
     * @return cells
     */
    public static List<MeterCell> sessionMeters(UpfSessionRecord record, boolean reset) {
        return record.session().ambr()
                .map(m -> List.of(new MeterCell(SESSION_METER, record.uplinkCell(), reset ? null : m),
                                  new MeterCell(SESSION_METER, record.downlinkCell(),
                                                reset ? null : m)))
                .orElse(List.of());
    }

    /**
     * An application's meter cell (none without a meter).
     *
     * @param app   application
     * @param reset true for the cell back to unconfigured
     * @return cells
     */
    public static List<MeterCell> applicationMeters(UpfApplication app, boolean reset) {
        return app.meter().map(m -> List.of(new MeterCell(APP_METER, app.appId(), reset ? null : m)))
                .orElse(List.of());
    }

    /**
     * The queues entry of a QFI.
     *
     * @param appId owner
     * @param queue mapping
     * @return rule
     */
    public static FlowRule queueRule(ApplicationId appId, UpfQueue queue) {
        return rule(appId, queue.deviceId(), QUEUES, EXACT_PRIORITY,
                    PiCriterion.builder().matchExact(KEY_QFI, (long) queue.qfi()).build(),
                    PiAction.builder().withId(SET_QUEUE)
                            .withParameter(new PiActionParam(PRIORITY, (long) queue.queue())).build());
    }

    /**
     * The applications entry.
     *
     * @param appId owner
     * @param app   application
     * @return rule
     */
    public static FlowRule applicationRule(ApplicationId appId, UpfApplication app) {
        PiCriterion.Builder match = PiCriterion.builder();
        filter(match, app.filter());
        return rule(appId, app.deviceId(), APPLICATIONS, app.priority(), match.build(),
                    PiAction.builder().withId(SET_APP_ID)
                            .withParameter(new PiActionParam(APP_ID, (long) app.appId())).build());
    }

    /**
     * The firewall entry.
     *
     * @param appId owner
     * @param fw    rule
     * @return flow rule
     */
    public static FlowRule firewallRule(ApplicationId appId, FirewallRule fw) {
        PiCriterion.Builder match = PiCriterion.builder();
        // BOTH is a don't-care (mask 0, omitted on the wire); it also keeps
        // the criterion non-empty for a rule that names nothing else.
        long direction = fw.direction() == UpfDirection.UPLINK ? DIRECTION_UPLINK
                : fw.direction() == UpfDirection.DOWNLINK ? DIRECTION_DOWNLINK : 0;
        match.matchTernary(KEY_DIRECTION, direction,
                           fw.direction() == UpfDirection.BOTH ? 0 : DIRECTION_MASK);
        filter(match, fw.filter());
        PiActionId action = fw.action() == FirewallRule.Action.ALLOW ? FIREWALL_ALLOW : FIREWALL_DENY;
        return rule(appId, fw.deviceId(), FIREWALL, fw.priority(), match.build(),
                    PiAction.builder().withId(action).build());
    }

    // Only what the filter names: P4Runtime wants don't-care fields omitted.
    private static void filter(PiCriterion.Builder match, UpfFilter f) {
        f.ueAddress().ifPresent(p -> prefix(match, KEY_UE_ADDR, p));
        f.appAddress().ifPresent(p -> prefix(match, KEY_APP_ADDR, p));
        f.ipProto().ifPresent(p -> match.matchTernary(KEY_IP_PROTO, (long) p, PROTO_MASK));
        if (!f.uePort().isAny()) {
            match.matchRange(KEY_UE_PORT, (long) f.uePort().low(), (long) f.uePort().high());
        }
        if (!f.appPort().isAny()) {
            match.matchRange(KEY_APP_PORT, (long) f.appPort().low(), (long) f.appPort().high());
        }
    }

    private static void prefix(PiCriterion.Builder match, PiMatchFieldId field, Ip4Prefix prefix) {
        int length = prefix.prefixLength();
        long mask = length == 0 ? 0 : (ADDRESS_MASK << (32 - length)) & ADDRESS_MASK;
        match.matchTernary(field, address(prefix.address()), mask);
    }

    private static long address(Ip4Address address) {
        return address.toInt() & ADDRESS_MASK;
    }

    private static FlowRule rule(ApplicationId appId, DeviceId device, PiTableId table,
                                 int priority, PiCriterion match, PiAction action) {
        return DefaultFlowRule.builder()
                .forDevice(device)
                .forTable(table)
                .fromApp(appId)
                .withPriority(priority)
                .makePermanent()
                .withSelector(DefaultTrafficSelector.builder().matchPi(match).build())
                .withTreatment(DefaultTrafficTreatment.builder().piTableAction(action).build())
                .build();
    }
}
