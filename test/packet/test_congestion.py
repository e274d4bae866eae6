# SPDX-License-Identifier: Apache-2.0
"""Congestion detection and avoidance in the data plane (include/congestion.p4).

A latency-critical flow has a path in slot 0 (primary) and maybe one in
slot 1 (backup). Thresholds of 0 µs make every packet count as over them
(the comparison is >=), the largest value none, so the m-packet rule is
tested without depending on how fast a target is. Register state outlives
a test, so each test takes flow ids of its own (a flow's cells also start
from zero on its first packet of a new generation, tested below)."""
import itertools
import struct

import pytest
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from .dataplane import MARKER, collect, expect_no_packet, expect_packet
from .packets import HOST2_IP, HOST2_MAC, udp_frame

ETHERTYPE_CC_NOTIFY = 0x88B6
NOTIFY_SESSION_BASE = 1000
NEVER = (1 << 32) - 1
PRIMARY_MAC, BACKUP_MAC = "02:cc:00:00:00:01", "02:cc:00:00:00:02"
SWITCH_ID = 7
_flow_ids = itertools.count(1)


class Cc:
    """One latency-critical flow on the switch: UDP to HOST2_IP port 5000."""

    def __init__(self, sw, ingress, primary, backup=None, report=0):
        self.sw, self.ingress, self.primary, self.backup = sw, ingress, primary, backup
        self.flow = next(_flow_ids)
        default = sw.entry("cc_ingress.cc_switch", action="cc_ingress.set_switch_id",
                           params={"id": SWITCH_ID, "report": report})
        default.is_default_action = True
        sw.client.modify(default)
        self.tracking = sw.insert("cc_ingress.cc_flows", priority=1,
                                  match=self.five_tuple(), action="cc_ingress.track",
                                  params={"flow": self.flow, "generation": 1})
        self.path(0, primary, PRIMARY_MAC)
        if backup is not None:
            self.path(1, backup, BACKUP_MAC)

    @property
    def dport(self):
        return 5000 + self.flow

    def five_tuple(self):
        return {"ipv4_dst": (HOST2_IP, 0xFFFFFFFF), "l4_dst_port": (self.dport, 0xFFFF)}

    def register_again(self, generation):
        """The controller's cc_flows entry for the flow, written again with
        a generation (a new registration of the same index, or the same)."""
        self.tracking = self.sw.entry("cc_ingress.cc_flows", priority=1,
                                      match=self.five_tuple(), action="cc_ingress.track",
                                      params={"flow": self.flow, "generation": generation})
        self.sw.client.modify(self.tracking)

    def path(self, slot, port, mac):
        for table, action, params in (("cc_ingress.cc_paths", "cc_ingress.forward",
                                       {"port": port, "dmac": mac}),
                                      ("cc_ingress.cc_alternates", "cc_ingress.alternate", {})):
            self.sw.insert(table, match={"flow": self.flow, "slot": slot}, action=action,
                           params=params)

    def thresholds(self, queue_us, proc_us, m):
        self.sw.insert("EgressPipeImpl.cc_egress.cc_thresholds", match={"flow": self.flow},
                       action="EgressPipeImpl.cc_egress.limits",
                       params={"queue_us": queue_us, "proc_us": proc_us, "m": m})

    def frame(self, seq):
        return udp_frame(dport=self.dport, seq=seq)

    def send(self, seq):
        frame = self.frame(seq)
        self.sw.port(self.ingress).send(frame)
        return frame


def rewritten(frame, mac):
    out = Ether(bytes(frame))
    out[Ether].dst = mac
    return out


@pytest.fixture
def digests(sw):
    sw.client.enable_digest(sw.p4info.digest_id("cc_digest_t"))
    while sw.client.digest_list(timeout=0) is not None:
        pass  # left by an earlier test
    return sw.client


def decode_digest(digest):
    """(flow, switch id, slot, queue µs, processing µs) of a DigestList's one entry."""
    [data] = digest.data
    return tuple(int.from_bytes(m.bitstring, "big") for m in data.struct.members)


def notification(port, timeout=2.0):
    """The next congestion notification out of `port`: (flow, switch, queue, proc)."""
    while (frame := port.recv(timeout)) is not None:
        eth = Ether(frame)
        if eth.type == ETHERTYPE_CC_NOTIFY:
            return struct.unpack("!HHII", bytes(eth.payload)[:12])
    return None


def test_a_flow_under_its_thresholds_keeps_its_primary_path(sw, digests):
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    for seq in range(10):
        expect_packet(sw.port(primary), rewritten(cc.send(seq), PRIMARY_MAC))
    assert digests.digest_list(timeout=0.3) is None


def test_m_packets_over_a_threshold_move_the_flow_to_its_backup(sw, digests):
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(0, 0, 3)
    # The third packet over the threshold makes the flow congested as it
    # leaves; the fourth takes the backup, and tells the controller.
    for seq in range(3):
        expect_packet(sw.port(primary), rewritten(cc.send(seq), PRIMARY_MAC))
    for seq in range(3, 6):
        expect_packet(sw.port(backup), rewritten(cc.send(seq), BACKUP_MAC))
    digest = digests.digest_list()
    assert digest is not None, "no digest of the switch-over"
    flow, switch, slot, _, _ = decode_digest(digest)
    assert (flow, switch, slot) == (cc.flow, SWITCH_ID, 1)
    assert digests.digest_list(timeout=0.3) is None, "one digest per switch-over"


def test_a_run_under_the_thresholds_starts_the_count_again(sw, digests):
    # m = 2 with a queue threshold of 0 and the processing one never: every
    # packet is over (queuing delay >= 0), so the second switches.
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(0, NEVER, 2)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    expect_packet(sw.port(primary), rewritten(cc.send(1), PRIMARY_MAC))
    expect_packet(sw.port(backup), rewritten(cc.send(2), BACKUP_MAC))


def test_without_a_backup_the_switch_notifies_the_previous_hop(sw, digests):
    first, primary = sw.take_ports(2)
    sw.add_clone_session(NOTIFY_SESSION_BASE + first, [first])
    cc = Cc(sw, first, primary)
    cc.thresholds(0, 0, 2)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    expect_packet(sw.port(primary), rewritten(cc.send(1), PRIMARY_MAC))
    notified = notification(sw.port(first))
    assert notified is not None, "no congestion notification towards the previous hop"
    assert notified[:2] == (cc.flow, SWITCH_ID)
    # The flow stays on its only path.
    expect_packet(sw.port(primary), rewritten(cc.send(2), PRIMARY_MAC))


def notify_frame(flow, queue_us=1500, proc_us=20):
    return (Ether(dst="02:cc:00:00:00:ff", src="02:cc:00:00:00:fe", type=ETHERTYPE_CC_NOTIFY)
            / Raw(struct.pack("!HHII", flow, 42, queue_us, proc_us) + MARKER))


def test_a_notification_moves_a_flow_that_has_a_backup_here(sw, digests):
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    sw.port(primary).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])  # consumed
    expect_packet(sw.port(backup), rewritten(cc.send(1), BACKUP_MAC))
    digest = digests.digest_list()
    assert digest is not None, "no digest of the switch-over"
    assert decode_digest(digest) == (cc.flow, SWITCH_ID, 1, 1500, 20)


def test_a_notification_for_a_flow_without_a_backup_changes_nothing(sw, digests):
    first, primary = sw.take_ports(2)
    cc = Cc(sw, first, primary)
    cc.thresholds(NEVER, NEVER, 3)
    sw.port(primary).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (first, primary)])
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    assert digests.digest_list(timeout=0.3) is None


def test_untracked_traffic_is_forwarded_as_before(sw):
    first, primary, second = sw.take_ports(3)
    Cc(sw, first, primary)
    other = udp_frame(dport=4000, seq=1)
    other[IP].dst = "10.0.0.99"
    sw.port(first).send(other)
    expect_no_packet([sw.port(primary)])  # no forwarding entry: dropped, not steered


def test_a_notification_from_the_path_the_flow_left_is_stale(sw, digests):
    """Notifications come back along a path for packets queued there; once
    the flow has moved, those from the path it left must not move it back
    (it flip-flopped 19 times in 3 s in the controller's lab before)."""
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    # Each notification is consumed before the next packet goes (they come
    # in by different ports, which a target may serve in any order).
    sw.port(primary).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])
    expect_packet(sw.port(backup), rewritten(cc.send(1), BACKUP_MAC))
    assert decode_digest(digests.digest_list())[:3] == (cc.flow, SWITCH_ID, 1)
    sw.port(primary).send(notify_frame(cc.flow))  # stale: from the old path
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])
    expect_packet(sw.port(backup), rewritten(cc.send(2), BACKUP_MAC))
    assert digests.digest_list(timeout=0.3) is None, "a stale notification moved the flow"
    sw.port(backup).send(notify_frame(cc.flow))  # the path it takes now
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])
    expect_packet(sw.port(primary), rewritten(cc.send(3), PRIMARY_MAC))
    assert decode_digest(digests.digest_list())[:3] == (cc.flow, SWITCH_ID, 0)


def test_without_a_backup_a_notification_goes_on_upstream(sw, digests):
    """A switch that cannot move the flow sends its notification on out of
    the port the flow comes in by, towards a switch that can; one that did
    not come back along the flow's path is dropped."""
    first, primary, other = sw.take_ports(3)
    cc = Cc(sw, first, primary)
    cc.thresholds(NEVER, NEVER, 3)
    expect_packet(sw.port(primary), rewritten(cc.send(0), PRIMARY_MAC))
    relayed = notify_frame(cc.flow)
    sw.port(primary).send(relayed)
    expect_packet(sw.port(first), relayed)
    sw.port(other).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (first, primary, other)])
    expect_packet(sw.port(primary), rewritten(cc.send(1), PRIMARY_MAC))
    assert digests.digest_list(timeout=0.3) is None


def test_a_packet_queued_on_the_path_the_flow_left_keeps_its_switch_over_reported(sw, digests):
    """pbswitch-specific (a port shaped to a known rate): two packets of the
    flow queue behind a backlog on its primary; the first to leave moves
    the flow, the second is congested too but finds it moved. The digest
    of the move must still come with the next packet (the second packet
    used to clear the switch's pending report: the digest was lost)."""
    shaped = next(iter(sw.target.port_rates), None)
    if shaped is None:
        pytest.skip(f"target {sw.target.name} has no port shaped to a known rate (pbswitch's "
                    "--port ID=IF@BPS; BMv2 sets queue rates through its Thrift runtime only)")
    first, backup = sw.take_ports(2)
    cc = Cc(sw, first, shaped, backup)
    cc.thresholds(0, 0, 1)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": shaped})
    # 30 untracked frames of 1 kB: about 240 ms of backlog at 1 Mbit/s, so
    # both tracked packets pass ingress (slot 0) before either leaves.
    filler = [bytes(udp_frame(dport=4000, seq=i) / bytes(900)) for i in range(30)]
    queued = [cc.frame(seq) for seq in (0, 1)]
    for frame in filler + [bytes(f) for f in queued]:
        sw.port(first).send(frame)
    got = collect(sw.port(shaped), 1.0)
    left = [bytes(rewritten(f, PRIMARY_MAC)) for f in queued]
    assert sum(1 for g in got if g in left) == 2, "both tracked packets left by the primary"
    expect_packet(sw.port(backup), rewritten(cc.send(2), BACKUP_MAC))
    digest = digests.digest_list()
    assert digest is not None, "the switch-over's digest was lost"
    assert decode_digest(digest)[:3] == (cc.flow, SWITCH_ID, 1)


def move_by_notification(sw, cc, digests):
    """Moves the flow to its backup (slot 1) by a notification from its
    primary, as the tests above do, and takes the digest."""
    expect_packet(sw.port(cc.primary), rewritten(cc.send(0), PRIMARY_MAC))
    sw.port(cc.primary).send(notify_frame(cc.flow))
    expect_no_packet([sw.port(p) for p in (cc.ingress, cc.primary, cc.backup)])
    expect_packet(sw.port(cc.backup), rewritten(cc.send(1), BACKUP_MAC))
    assert decode_digest(digests.digest_list())[:3] == (cc.flow, SWITCH_ID, 1)


def test_a_new_generation_of_a_flow_index_starts_its_cells_from_zero(sw, digests):
    """An index the controller registers again (a new generation in its
    cc_flows entry) inherits nothing: the new flow takes slot 0 though the
    old one had moved to slot 1, with no register written by the
    controller. The same generation written again keeps the cells (a
    rewrite of the entry must not undo a switch-over). Seen by where the
    packets go: BMv2's P4Runtime server reads no registers."""
    first, primary, backup = sw.take_ports(3)
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    move_by_notification(sw, cc, digests)
    cc.register_again(1)
    expect_packet(sw.port(backup), rewritten(cc.send(2), BACKUP_MAC))
    cc.register_again(2)
    expect_packet(sw.port(primary), rewritten(cc.send(3), PRIMARY_MAC))
    assert digests.digest_list(timeout=0.3) is None, "a new generation is no switch-over"


def report_frame(flow, switch, queue_us, proc_us, slot):
    """A switch-over report as the controller gets it: Ethernet (the
    tracked packet's addresses, the notification's ethertype) and
    cc_report_t (flow, switch, queue µs, processing µs, slot)."""
    return struct.pack("!HHIIB", flow, switch, queue_us, proc_us, slot)


def test_a_switch_over_is_also_reported_by_packet_in_when_the_controller_asks(sw, digests):
    """Where the controller takes no digests (ONOS 2.7), set_switch_id's
    report bit makes the switch send each switch-over to it as a packet-in:
    Ethernet of type 0x88b6 and cc_report_t, the payload left behind. The
    digest still comes."""
    first, primary, backup = sw.take_ports(3)
    sw.add_clone_session(99, [sw.target.cpu_port])
    cc = Cc(sw, first, primary, backup, report=1)
    cc.thresholds(NEVER, NEVER, 3)
    sent = cc.send(0)
    expect_packet(sw.port(primary), rewritten(sent, PRIMARY_MAC))
    sw.expect_no_packet_in()
    sw.port(primary).send(notify_frame(cc.flow, queue_us=1500, proc_us=20))
    expect_no_packet([sw.port(p) for p in (first, primary, backup)])
    mover = cc.send(1)
    expect_packet(sw.port(backup), rewritten(mover, BACKUP_MAC))
    eth = Ether(bytes(mover))
    report = (Ether(dst=eth.dst, src=eth.src, type=ETHERTYPE_CC_NOTIFY)
              / Raw(report_frame(cc.flow, SWITCH_ID, 1500, 20, 1)))
    assert sw.expect_packet_in(report)["ingress_port"] == first
    assert decode_digest(digests.digest_list()) == (cc.flow, SWITCH_ID, 1, 1500, 20)
    expect_packet(sw.port(backup), rewritten(cc.send(2), BACKUP_MAC))
    sw.expect_no_packet_in()  # one report per switch-over


def test_without_the_report_bit_a_switch_over_sends_no_packet_in(sw, digests):
    first, primary, backup = sw.take_ports(3)
    sw.add_clone_session(99, [sw.target.cpu_port])
    cc = Cc(sw, first, primary, backup)
    cc.thresholds(NEVER, NEVER, 3)
    move_by_notification(sw, cc, digests)
    sw.expect_no_packet_in()
