# SPDX-License-Identifier: Apache-2.0
"""FB buffer admission in the P4 program (include/fb.p4, the FB paper's §5.1).

The first tests need only tables and counters, so they run on every
target: B (fb_buffer's default action) and the shift table decide what an
empty queue takes, and a charge that egress did not release would make
the next packet of a one-packet buffer fail. The others set FB's registers
over P4Runtime, send one packet and read what ingress decided and egress
wrote back; they skip on a target without P4Runtime register entries (PI
under BMv2 answers UNIMPLEMENTED). The burst test builds a real queue
behind pbswitch's shaped port.

Queue index = egress port * 8 + priority. Thresholds count packets."""
import pytest

from .client import WriteError
from .dataplane import collect, expect_no_packet, expect_packet
from .packets import HOST2_MAC, udp_frame

LOW, HIGH = 0, 1
QUEUE = 2           # the class (priority) fb_classes gives the tested packets
ALPHA_ONE = 1       # alpha_id of alpha 1
ALPHA_TWO = 2       # alpha_id of alpha 2


class Fb:
    """FB's state on the switch: entries and registers by name."""

    def __init__(self, sw, port):
        self.sw, self.port = sw, port
        self.idx = port * 8 + QUEUE
        # The drop counter outlives a test: count from here.
        self.drops_before = self._drop_cell()

    def enable(self, alpha_id=ALPHA_ONE, high=LOW, port=None):
        self.sw.insert("fb_admission.fb_classes", priority=1,
                       match={"egress_port": self.port if port is None else port},
                       action="fb_admission.fb_class",
                       params={"queue": QUEUE, "alpha_id": alpha_id, "high": high})

    def shift(self, alpha_id, congested, active, left=0, right=0):
        """threshold = (remaining << left) >> right for N_p in congested and
        n in active (inclusive ranges)."""
        self.sw.insert("fb_admission.fb_shift", priority=1,
                       match={"alpha_id": alpha_id, "congested": congested, "active": active},
                       action="fb_admission.set_shift", params={"left": left, "right": right})

    def buffer(self, packets):
        """B: fb_buffer's default action."""
        default = self.sw.entry("fb_admission.fb_buffer", action="fb_admission.set_buffer",
                                params={"packets": packets})
        default.is_default_action = True
        self.sw.client.modify(default)

    def set(self, buffer=0, occupied=0, qlen=0, congested=0, active=0, high=LOW):
        self.buffer(buffer)
        self.sw.write_register("fb_occupied", 0, occupied)
        self.sw.write_register("fb_qlen", self.idx, qlen)
        self.sw.write_register("fb_congested", LOW, congested if high == LOW else 0)
        self.sw.write_register("fb_congested", HIGH, congested if high == HIGH else 0)
        self.sw.write_register("fb_active", self.port, active)

    def state(self, high=LOW):
        reg = self.sw.read_register
        return {"occupied": reg("fb_occupied", 0), "qlen": reg("fb_qlen", self.idx),
                "congested": reg("fb_congested", high), "active": reg("fb_active", self.port)}

    def _drop_cell(self):
        return self.sw.counter_cell("fb_admission.fb_drops", self.idx)[0]

    def drops(self):
        """Packets FB refused into the queue since this object was made."""
        return self._drop_cell() - self.drops_before


@pytest.fixture
def fb(sw):
    sw.require_priority_queues()  # FB's class is the packet's priority
    first, second = sw.take_ports(2)
    sw.insert("forwarding.l2_exact", match={"eth_dst": HOST2_MAC},
              action="forwarding.set_egress_port", params={"port": second})
    state = Fb(sw, second)
    state.ingress = first
    yield state
    state.buffer(0)  # a default action outlives the test's entries


@pytest.fixture
def registers(fb):
    """FB with its registers reachable over P4Runtime, left at rest after."""
    try:
        fb.sw.write_register("fb_occupied", 0, 0)
    except WriteError as e:
        if e.update_codes() == ["UNIMPLEMENTED"]:
            pytest.skip(f"target {fb.sw.target.name} does not implement P4Runtime register "
                        f"entries: {e}")
        raise
    yield fb
    fb.set()


# ---- on every target: tables and counters only -----------------------------

def test_until_the_controller_sets_b_an_fb_port_takes_nothing(fb):
    fb.enable()
    for seq in range(3):
        send(fb, seq)
    expect_no_packet([fb.sw.port(fb.port)])
    assert fb.drops() == 3


@pytest.mark.parametrize("buffer, shift, admitted", [
    (2, {"right": 1}, True),               # 2 >> 1 = 1 > 0 held
    (2, {"right": 2}, False),              # 2 >> 2 = 0: none
    (1, {"left": 1, "right": 1}, True),    # alpha 2 over two queues: 1
    (1, {"left": 3, "right": 4}, False),   # alpha 8 over 16: 0
])
def test_the_shift_table_sets_an_empty_queues_threshold(fb, buffer, shift, admitted):
    fb.enable()
    fb.shift(ALPHA_ONE, congested=(1, 1), active=(1, 1), **shift)
    fb.buffer(buffer)
    frame = send(fb)
    if admitted:
        expect_packet(fb.sw.port(fb.port), frame)
    else:
        expect_no_packet([fb.sw.port(fb.port)])
    assert fb.drops() == (0 if admitted else 1)


def test_egress_releases_what_ingress_charged(fb):
    # A one-packet buffer: each packet is admitted only if the one before
    # it was released when it left its queue.
    fb.enable()
    fb.buffer(1)
    for seq in range(100):
        expect_packet(fb.sw.port(fb.port), send(fb, seq))
    assert fb.drops() == 0


def test_a_port_without_fb_is_left_to_the_traffic_manager(fb):
    # FB on another port only: B = 0 does not stop this one.
    fb.enable(port=fb.ingress)
    expect_packet(fb.sw.port(fb.port), send(fb))
    assert fb.drops() == 0


# ---- with register access: the state ingress weighs and egress writes -------


def send(fb, seq=0):
    frame = udp_frame(seq=seq)
    fb.sw.port(fb.ingress).send(frame)
    return frame


@pytest.mark.usefixtures("registers")
def test_an_admitted_packet_is_charged_in_ingress_and_released_in_egress(fb):
    # B 100, 60 held elsewhere: 40 left. The queue is empty and one other
    # low queue is congested, so N_p = 2 with this one, n = 1: half of 40.
    fb.enable()
    fb.shift(ALPHA_ONE, congested=(2, 2), active=(1, 1), right=1)
    fb.set(buffer=100, occupied=60, congested=1)
    expect_packet(fb.sw.port(fb.port), send(fb))
    # Charged (+1, congested) in ingress, released in egress: the queue is
    # empty again (deq_qdepth 0), the buffer back to the 60 held elsewhere.
    assert fb.state() == {"occupied": 60, "qlen": 0, "congested": 1, "active": 0}
    assert fb.drops() == 0


@pytest.mark.parametrize("occupied, qlen, congested, shift, admitted", [
    # N_p 1, n 1, no shift: the threshold is the 20 left; 25 held: refused.
    (80, 25, 1, {}, False),
    # 40 left: 25 < 40, admitted.
    (60, 25, 1, {}, True),
    # Two congested low queues: 40 >> 1 = 20, and 25 is over it.
    (60, 25, 2, {"right": 1}, False),
    (60, 15, 2, {"right": 1}, True),
    # A full buffer refuses even an empty queue's first packet.
    (100, 0, 0, {}, False),
])
@pytest.mark.usefixtures("registers")
def test_admission_compares_the_queue_with_its_shifted_share(fb, occupied, qlen, congested,
                                                             shift, admitted):
    fb.enable()
    np = congested if qlen else congested + 1
    fb.shift(ALPHA_ONE, congested=(np, np), active=(1, 1), **shift)
    fb.set(buffer=100, occupied=occupied, qlen=qlen, congested=congested,
           active=1 if qlen else 0)
    frame = send(fb)
    if not admitted:
        expect_no_packet([fb.sw.port(fb.port)])
        assert fb.drops() == 1
        assert fb.state() == {"occupied": occupied, "qlen": qlen, "congested": congested,
                              "active": 1 if qlen else 0}, "a refused packet changed FB's state"
        return
    expect_packet(fb.sw.port(fb.port), frame)
    assert fb.drops() == 0
    # The egress writes back the true length: the traffic manager held none
    # of the qlen packets FB counted, so all of them leave the buffer, and
    # the queue is no longer congested.
    assert fb.state() == {"occupied": occupied - qlen, "qlen": 0,
                          "congested": congested - 1 if qlen else congested, "active": 0}


@pytest.mark.usefixtures("registers")
def test_a_class_alpha_above_one_shifts_left(fb):
    # alpha 2 (high class): twice the 20 left, so 30 held is under it.
    fb.enable(alpha_id=ALPHA_TWO, high=HIGH)
    fb.shift(ALPHA_TWO, congested=(1, 1), active=(1, 1), left=1)
    fb.set(buffer=100, occupied=80, qlen=30, congested=1, active=1, high=HIGH)
    expect_packet(fb.sw.port(fb.port), send(fb))
    assert fb.state(HIGH) == {"occupied": 50, "qlen": 0, "congested": 0, "active": 0}


@pytest.mark.usefixtures("registers")
def test_without_a_shift_entry_the_whole_remaining_buffer_is_the_threshold(fb):
    fb.enable()
    fb.set(buffer=100, occupied=70, qlen=29, congested=1, active=1)
    expect_packet(fb.sw.port(fb.port), send(fb))
    fb.set(buffer=100, occupied=70, qlen=30, congested=1, active=1)
    send(fb)
    expect_no_packet([fb.sw.port(fb.port)])
    assert fb.drops() == 1


def test_a_burst_into_a_slow_port_is_bounded_and_fully_accounted(sw):
    """pbswitch-specific: needs a port shaped to a known rate, so that a
    real queue builds behind the shaper (BMv2 shapes queues through its
    Thrift runtime only). B = 40 packets, one queue: it takes packets while
    q < 40 - q, so FB holds at most 20 behind the shaper; every frame sent
    is delivered or counted as an FB drop, in order, and once the port has
    drained FB's registers are back at rest."""
    first, shaped = sw.forward_to_shaped_port(HOST2_MAC)
    fb = Fb(sw, shaped)
    fb.enable()
    fb.set(buffer=40)
    try:
        # 1000-byte frames: the shaper's 9216-byte burst lets 9 go at once,
        # then one leaves every 8 ms, so the queue passes 20 unless sending
        # 200 frames took over 1.4 s.
        wants = [bytes(udp_frame(seq=i) / bytes(900)) for i in range(200)]
        for frame in wants:  # serialised first, as in test_qos
            sw.port(first).send(frame)
        got = collect(sw.port(shaped), 1.0)
        positions = [wants.index(g) for g in got]
        assert positions == sorted(positions), "FB reordered the burst"
        assert len(got) + fb.drops() == len(wants), (len(got), fb.drops())
        assert fb.drops() > 0, "200 frames into a 1 Mbit/s port: FB refused none"
        assert fb.state() == {"occupied": 0, "qlen": 0, "congested": 0, "active": 0}
    finally:
        fb.set()
