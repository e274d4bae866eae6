# SPDX-License-Identifier: Apache-2.0
"""The congestion scenario's detection figures on made-up runs (no lab):
the congested switch's own detection (in_switch_detection_ms) counts
consecutive packets out of its queue over t_q as the switch does, and
detection_ms times the rest from the same packets."""
import datetime

from test.scenarios import congestion

MS = 1_000_000
CROSS_START = 1_000 * MS
IDLE_NS = 1 * MS  # every made-up packet's one-way delay before the queue


def run(delays_ms, m=3, backup=(), lost=(), switch_over_ms=None, tq_us=1000):
    """A run whose tactile packet i is sent at cross start + i ms with the
    given one-way delay; packets before the cross traffic set the idle delay."""
    idle = [[i, CROSS_START - (10 - i) * MS, CROSS_START - (10 - i) * MS + IDLE_NS]
            for i in range(10)]
    loaded = [[10 + i, CROSS_START + i * MS, CROSS_START + i * MS + int(d * MS)]
              for i, d in enumerate(delays_ms) if 10 + i not in lost]
    records = []
    if switch_over_ms is not None:
        at = CROSS_START + int(switch_over_ms * MS)
        records.append({"deviceId": "device:s1", "time": iso(at)})
    return {"mode": "DATAPLANE", "arrivals": idle + loaded, "cross_start_ns": CROSS_START,
            "backup": set(backup), "switch_overs": records, "congested": "device:s3",
            "thresholds": [{"deviceId": "device:s3", "queueUs": tq_us, "procUs": 25000, "m": m}]}


def iso(ns):
    """ns as Java prints an Instant."""
    whole = datetime.datetime.fromtimestamp(ns // 1_000_000_000, datetime.timezone.utc)
    return whole.strftime("%Y-%m-%dT%H:%M:%S") + f".{ns % 1_000_000_000:09d}Z"


def test_the_switch_detects_at_the_mth_packet_in_a_row_over_tq():
    # Delays 1 ms idle; over t_q (1 ms) above it from packet 12 on.
    r = run([1, 1, 2.5, 3, 3.5, 4, 4], backup=[17, 18])
    # Packets 12, 13, 14 (sent 2, 3, 4 ms) arrive at 4.5, 6, 7.5 ms: 3 ms apart.
    assert congestion.in_switch_detection_ms(r, IDLE_NS + 1000 * 1000, CROSS_START) == 3.0


def test_a_packet_on_time_starts_the_count_again_and_a_lost_one_does_not():
    on_time = run([2.5, 3, 1, 2.5, 2.5, 2.5])
    # 10, 11 over; 12 on time; 13, 14, 15 over: from 13's arrival to 15's.
    assert congestion.in_switch_detection_ms(on_time, IDLE_NS + 1000 * 1000, CROSS_START) == 2.0
    dropped = run([2.5, 3, 9, 3.5], lost=[12])
    # 12 never left the queue: 10, 11, 13 are the switch's three in a row.
    assert congestion.in_switch_detection_ms(dropped, IDLE_NS + 1000 * 1000, CROSS_START) == 4.0


def test_no_detection_without_m_in_a_row_on_the_primary():
    r = run([2.5, 2.5, 2.5], backup=[12])
    assert congestion.in_switch_detection_ms(r, IDLE_NS + 1000 * 1000, CROSS_START) is None
    assert congestion.in_switch_detection_ms(run([2.5, 2.5, 2.5], m=1), IDLE_NS + 1000 * 1000,
                                             CROSS_START) == 0.0


def test_detection_ms_times_the_switch_the_backup_and_the_record_from_one_packet():
    r = run([1, 1, 2.5, 3, 3.5, 4, 4, 1], backup=[17], switch_over_ms=9.5)
    d = congestion.detection_ms(r)
    assert not d["false_positive"]
    assert d["in_switch"] == 3.0
    assert d["to_backup"] == 5.0   # first over t_q sent at 2 ms, first on the backup at 7 ms
    assert d["to_digest"] == 7.5


def test_a_move_before_the_cross_traffic_is_a_false_positive_and_not_timed():
    r = run([2.5, 2.5, 2.5], backup=[3])
    assert congestion.detection_ms(r) == {
        "false_positive": True, "to_digest": None, "to_backup": None, "in_switch": None,
        "from_cross_start": None, "backup_from_cross_start": None}


def test_the_senders_lag_is_from_its_stamp_to_its_packet_on_the_wire():
    r = run([1, 1, 6])
    # Packet 12 was stamped at 2 ms but left at 6 ms (its sender held for 4 ms).
    r["left_ns"] = [[10, CROSS_START], [11, CROSS_START + MS], [12, CROSS_START + 6 * MS]]
    lag, from_wire = congestion.sender_lag(r, CROSS_START)
    assert lag == [0.0, 0.0, 4.0]
    assert from_wire == [1.0, 1.0, 2.0]
    assert congestion.sender_lag(run([1]), CROSS_START) == ([], [])
