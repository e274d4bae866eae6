# SPDX-License-Identifier: Apache-2.0
"""Names to ids and values to bytes, from the committed p4info.

Tests name tables, actions, match fields and parameters the way the P4
source does; ids come from the p4info, so a recompiled program with new ids
changes nothing here, and a renamed table fails with a clear KeyError.
"""
import ipaddress
import pathlib

from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "pipeconf" / "p4src" / "build"
P4INFO_PATH = BUILD / "p4info.txt"
BMV2_JSON_PATH = BUILD / "bmv2.json"
# The engine's test programs, each with its committed p4c outputs.
ENGINE_TESTDATA = ROOT / "pbswitch" / "v1model" / "testdata"

# P4 names are qualified by the control instances of main.p4; tests use the
# short names below, which this prefix completes.
INGRESS = "IngressPipeImpl"


def load_p4info(path=P4INFO_PATH):
    info = p4info_pb2.P4Info()
    text_format.Parse(pathlib.Path(path).read_text(), info)
    return info


def encode(value, bitwidth):
    """P4Runtime canonical bytes of `value` (int, MAC "aa:bb:..", IPv4
    "a.b.c.d" or bytes): big-endian, no leading zero bytes, at least one
    byte. Raises ValueError if the value does not fit the field."""
    if isinstance(value, bytes):
        number = int.from_bytes(value, "big")
    elif isinstance(value, str) and value.count(":") == 5:
        number = int(value.replace(":", ""), 16)
    elif isinstance(value, str):
        number = int(ipaddress.IPv4Address(value))
    else:
        number = int(value)
    if number < 0 or number >= 1 << bitwidth:
        raise ValueError(f"{value!r} does not fit in {bitwidth} bits")
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")


def decode(data):
    return int.from_bytes(data, "big")


def engine_test_program(name, ingress):
    """(P4Info, bmv2.json bytes) of one of pbswitch's engine test programs
    (pbswitch/v1model/testdata/NAME.p4, compiled by `make
    p4-build-testdata`); short names complete with `ingress`, the name of
    its ingress control. Raises FileNotFoundError when it is not compiled."""
    info = load_p4info(ENGINE_TESTDATA / f"{name}.p4info.txt")
    return P4Info(info, ingress=ingress), (ENGINE_TESTDATA / f"{name}.json").read_bytes()


class P4Info:
    """The p4info with lookups by name."""

    def __init__(self, info=None, ingress=INGRESS):
        self.ingress = ingress
        self.info = info if info is not None else load_p4info()
        self._tables = {t.preamble.name: t for t in self.info.tables}
        self._actions = {a.preamble.name: a for a in self.info.actions}
        self._counters = {c.preamble.name: c for c in self.info.direct_counters}
        self._indirect_counters = {c.preamble.name: c for c in self.info.counters}
        self._meters = {m.preamble.name: m for m in self.info.meters}
        self._registers = {r.preamble.name: r for r in self.info.registers}
        self._metadata = {m.preamble.name: m for m in self.info.controller_packet_metadata}

    def _qualified(self, name, known):
        if name in known:
            return name
        full = f"{self.ingress}.{name}"
        if full in known:
            return full
        raise KeyError(f"{name!r} is not in the p4info (known: {sorted(known)})")

    def table(self, name):
        return self._tables[self._qualified(name, self._tables)]

    def action(self, name):
        return self._actions[self._qualified(name, self._actions)]

    def table_id(self, name):
        return self.table(name).preamble.id

    def action_id(self, name):
        return self.action(name).preamble.id

    def direct_counter_id(self, name):
        return self._counters[self._qualified(name, self._counters)].preamble.id

    def counter_id(self, name):
        """Id of an indexed counter (counter(...) in the P4 source)."""
        return self._indirect_counters[self._qualified(name, self._indirect_counters)].preamble.id

    def meter_id(self, name):
        """Id of an indexed meter (meter(...) in the P4 source)."""
        return self._meters[self._qualified(name, self._meters)].preamble.id

    def digest_id(self, name):
        """Id of a digest by the name of its type (e.g. cc_digest_t)."""
        for d in self.info.digests:
            if d.preamble.name == name:
                return d.preamble.id
        raise KeyError(f"{name!r} is not a digest of the p4info")

    def register(self, name):
        """A register array (register<...>(...) in the P4 source, global or in
        the ingress control)."""
        return self._registers[self._qualified(name, self._registers)]

    def match_field(self, table, field):
        for mf in self.table(table).match_fields:
            if mf.name == field:
                return mf
        raise KeyError(f"table {table!r} has no match field {field!r}")

    def controller_header(self, header):
        """The ControllerPacketMetadata "packet_in" or "packet_out"."""
        return self._metadata[header]

    def packet_metadata(self, header, name):
        """(id, bitwidth) of a packet_in / packet_out metadata field."""
        for md in self._metadata[header].metadata:
            if md.name == name:
                return md.id, md.bitwidth
        raise KeyError(f"{header!r} has no metadata {name!r}")

    def field_match(self, table, field, value):
        """A FieldMatch for `value`: a plain value for exact, (value,
        prefix_len) for lpm, (value, mask) for ternary, (low, high) for
        range."""
        mf = self.match_field(table, field)
        fm = p4runtime_pb2.FieldMatch(field_id=mf.id)
        kind = p4info_pb2.MatchField.MatchType.Name(mf.match_type)
        if kind == "EXACT":
            fm.exact.value = encode(value, mf.bitwidth)
        elif kind == "LPM":
            address, prefix_len = value
            fm.lpm.value = encode(address, mf.bitwidth)
            fm.lpm.prefix_len = prefix_len
        elif kind == "TERNARY":
            data, mask = value
            fm.ternary.value = encode(data, mf.bitwidth)
            fm.ternary.mask = encode(mask, mf.bitwidth)
        elif kind == "RANGE":
            low, high = value
            fm.range.low = encode(low, mf.bitwidth)
            fm.range.high = encode(high, mf.bitwidth)
        else:
            raise ValueError(f"match kind {kind} of {table}.{field} is not supported here")
        return fm

    def action_proto(self, name, **params):
        action = self.action(name)
        proto = p4runtime_pb2.Action(action_id=action.preamble.id)
        by_name = {p.name: p for p in action.params}
        unknown = set(params) - set(by_name)
        if unknown:
            raise KeyError(f"action {name!r} has no parameters {sorted(unknown)}")
        for pname, value in params.items():
            p = by_name[pname]
            proto.params.add(param_id=p.id, value=encode(value, p.bitwidth))
        return proto

    def table_entry(self, table, match=None, action=None, params=None, priority=0):
        """A TableEntry by names: match is {field: value}, see field_match."""
        entry = p4runtime_pb2.TableEntry(table_id=self.table_id(table), priority=priority)
        for field, value in (match or {}).items():
            entry.match.append(self.field_match(table, field, value))
        if action is not None:
            entry.action.action.CopyFrom(self.action_proto(action, **(params or {})))
        return entry
