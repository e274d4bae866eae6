# SPDX-License-Identifier: Apache-2.0
"""The gnb_baas modem's receiving side without sockets: in-order delivery
with t-Reordering, at-once delivery, duplicates, statuses as SN ranges,
the SN wrap, and the radio loss it applies."""
import random

from test.scenarios.gnb_modem import SN_SPACE, Receiver, parse_radio
from test.packet.radio import pdcp_data, pdcp_status


class NoLoss:
    def random(self):
        return 1.0


class DropListed:
    """Drops the n-th frames (0-based) listed."""

    def __init__(self, drops):
        self.drops, self.n = set(drops), -1

    def random(self):
        self.n += 1
        return 0.0 if self.n in self.drops else 1.0


def receiver(in_order, rng=None, t_reordering_s=0.2):
    got = []
    rx = Receiver(got.append, 0.5, rng or NoLoss(), in_order, t_reordering_s)
    return rx, got


def test_in_order_waits_for_the_missing_sn_and_delivers_once():
    rx, got = receiver(True)
    for sn in (0, 2, 3):
        rx.on_data(sn, bytes([sn]), now=0.0)
    assert got == [b"\0"]
    rx.on_data(1, b"\1", now=0.05)          # the resend
    rx.on_data(2, b"\2", now=0.06)          # a late duplicate
    assert got == [b"\0", b"\1", b"\2", b"\3"]
    assert rx.stats["duplicates"] == 1
    assert rx.stats["max_wait_ms"] == 50.0


def test_in_order_skips_a_gap_after_t_reordering():
    rx, got = receiver(True, t_reordering_s=0.2)
    rx.on_data(0, b"a", now=0.0)
    rx.on_data(2, b"c", now=0.0)
    rx.tick(0.19)
    assert got == [b"a"]
    rx.tick(0.2)
    assert got == [b"a", b"c"]
    assert rx.stats["gaps_skipped"] == 1
    rx.on_data(1, b"b", now=0.3)            # too late: not delivered
    assert got == [b"a", b"c"]


def test_at_once_delivers_as_frames_arrive():
    rx, got = receiver(False, t_reordering_s=0.0)
    for sn in (0, 2, 1):
        rx.on_data(sn, bytes([sn]), now=0.0)
    assert got == [b"\0", b"\2", b"\1"]


def test_radio_loss_and_delivery_after_a_resend_are_counted():
    rx, got = receiver(True, rng=DropListed({1, 4}))
    for n, sn in enumerate((0, 1, 2, 1, 3)):   # frame 1 (SN 1) and 4 (SN 3) dropped
        rx.on_data(sn, bytes([sn]), now=n * 0.01)
    assert got == [b"\0", b"\1", b"\2"]
    assert rx.stats["radio_dropped"] == 2
    assert rx.stats["delivered_after_drop"] == 1
    stats = rx.finish()
    assert stats["dropped_never_delivered"] == 1


def test_statuses_are_one_range_per_run_of_received_sns():
    rx, _ = receiver(False)
    for sn in (5, 6, 7, 9, 10, 20):
        rx.on_data(sn, b"x", now=0.0)
    assert rx.statuses() == [(5, 7), (9, 10), (20, 20)]
    assert rx.statuses() == []


def test_the_sn_wraps_into_one_range_and_in_order_delivery():
    rx, got = receiver(True)
    rx.next_count = SN_SPACE - 2
    for sn in (SN_SPACE - 2, SN_SPACE - 1, 0, 1):
        rx.on_data(sn, b"%d" % sn, now=0.0)
    assert len(got) == 4 and rx.next_count == SN_SPACE + 2
    assert rx.statuses() == [(SN_SPACE - 2, 1)]


def test_the_loss_rate_is_the_configured_fraction():
    rx = Receiver(lambda _: None, 0.05, random.Random(7), False, 0.0)
    for sn in range(20000):
        rx.on_data(sn % SN_SPACE, b"x", now=0.0)
    assert 0.04 < rx.stats["radio_dropped"] / 20000 < 0.06


def test_frames_parse_as_the_documented_layout():
    frame = pdcp_data("02:00:00:00:0e:01", "00:00:00:00:0a:01", 0xD00001, 77, b"\x45" + b"\0" * 19)
    assert parse_radio(frame, 0xD00001) == (1, 77, b"\x45" + b"\0" * 19)
    assert parse_radio(frame, 0xD00002) is None
    status = pdcp_status("00:00:00:00:0a:01", "02:00:00:00:0e:01", 0xD00001, 3, 9)
    assert parse_radio(status, 0xD00001)[:2] == (0, 3)
    assert parse_radio(frame[:20], 0xD00001) is None
