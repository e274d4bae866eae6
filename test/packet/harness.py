# SPDX-License-Identifier: Apache-2.0
"""What a packet test holds: the switch under test, programmed by name.

A Switch is one primary controller connection plus the port interfaces.
It remembers the replication-engine entries a test wrote and, on close,
removes them and every table entry, so each test starts from an empty
pipeline without pushing the pipeline again.
"""
import pytest

from .client import Client, WriteError
from .dataplane import Port
from .p4info import P4Info, decode, encode


class Switch:
    # Leaves room below for backup controllers and above for a takeover.
    ELECTION_ID = (0, 10)

    def __init__(self, target, p4info=None, election_id=ELECTION_ID):
        self.target = target
        self.p4info = p4info or P4Info()
        self.client = Client(target.grpc_addr, target.device_id, election_id)
        if not self.client.is_primary:
            self.client.close()
            raise RuntimeError(f"not the primary controller of {target.grpc_addr} with "
                               f"election id {election_id}: another controller is connected")
        self.ports = {}
        self._written_pre = []
        self._written_meters = []
        try:
            for number, spec in sorted(target.ports.items()):
                self.ports[number] = Port(number, spec.ifname, spec.netns)
                self.ports[number].drain()
        except BaseException:
            self.close()
            raise

    def port(self, number):
        return self.ports[number]

    def port_numbers(self):
        return sorted(self.ports)

    def take_ports(self, count):
        """The first `count` port numbers; skips the test on a target with
        fewer ports."""
        numbers = self.port_numbers()
        if len(numbers) < count:
            pytest.skip(f"needs {count} ports, the target has {len(numbers)}")
        return numbers[:count]

    def forward_to_shaped_port(self, eth_dst):
        """Sends frames for `eth_dst` to the target's port shaped to a known
        rate (where a queue can build) and returns (a sending port, the shaped
        port); skips the test on a target with no shaped port, saying why."""
        shaped = next(iter(self.target.port_rates), None)
        if shaped is None:
            pytest.skip(f"target {self.target.name} has no port shaped to a known rate (pbswitch's "
                        "--port ID=IF@BPS; BMv2 sets queue rates through its Thrift runtime only)")
        (first,) = self.take_ports(1)
        self.insert("forwarding.l2_exact", match={"eth_dst": eth_dst},
                    action="forwarding.set_egress_port", params={"port": shaped})
        return first, shaped

    def require_priority_queues(self):
        """Skips the test on a target without a queue per priority (0-7),
        saying why."""
        if self.target.no_priority_queues:
            pytest.skip(self.target.no_priority_queues)

    # --- tables ---------------------------------------------------------

    def entry(self, table, match=None, action=None, params=None, priority=0):
        return self.p4info.table_entry(table, match, action, params, priority)

    def insert(self, table, match=None, action=None, params=None, priority=0):
        """Inserts an entry by names and returns it (to read or delete later)."""
        entry = self.entry(table, match, action, params, priority)
        self.client.insert(entry)
        return entry

    def counter(self, entry):
        return self.client.direct_counter(entry)

    def counter_cell(self, name, index):
        """(packets, bytes) of one cell of an indexed counter, by name."""
        return self.client.counter(self.p4info.counter_id(name), index)

    def write_register(self, name, index, value):
        """Sets one cell of a register array to the integer value."""
        reg = self.p4info.register(name)
        width = reg.type_spec.bitstring.bit.bitwidth
        self.client.modify(self.client.register_entry(reg.preamble.id, index,
                                                      encode(value, width)))

    def read_register(self, name, index):
        """One cell of a register array, as an integer."""
        reg = self.p4info.register(name)
        return int.from_bytes(self.client.register_cell(reg.preamble.id, index), "big")

    def configure_meter(self, name, index, cir, cburst, pir, pburst):
        """Configures one cell of an indexed meter (rates in units per
        second, bursts in units); close() makes it unconfigured again."""
        meter_id = self.p4info.meter_id(name)
        self.client.modify(Client.meter_entry(meter_id, index, (cir, cburst, pir, pburst)))
        self._written_meters.append((meter_id, index))

    # --- packet replication engine --------------------------------------

    def add_multicast_group(self, group_id, ports):
        pre = Client.multicast_group(group_id, ports)
        self.client.insert(pre)
        self._written_pre.append(pre)

    def add_clone_session(self, session_id, ports):
        pre = Client.clone_session(session_id, ports)
        self.client.insert(pre)
        self._written_pre.append(pre)

    # --- packet I/O with the controller ---------------------------------

    def packet_out(self, frame, egress_port):
        """A packet-out to `egress_port`, with every packet_out metadata
        field of the p4info (P4Runtime wants all of them; _pad is 0)."""
        self.client.packet_out(bytes(frame), self.packet_out_metadata(egress_port=egress_port))

    def packet_out_metadata(self, **values):
        """{id: bytes} for each packet_out metadata field; fields not in
        `values` are 0."""
        header = self.p4info.controller_header("packet_out")
        unknown = set(values) - {md.name for md in header.metadata}
        if unknown:
            raise KeyError(f"packet_out has no metadata {sorted(unknown)}")
        return {md.id: encode(values.get(md.name, 0), md.bitwidth) for md in header.metadata}

    def packet_in_metadata(self, packet):
        """{name: int} of a PacketIn's metadata, names from the p4info;
        fails on a metadata id the p4info does not have."""
        by_id = {md.id: md.name for md in self.p4info.controller_header("packet_in").metadata}
        names = {}
        for md in packet.metadata:
            if md.metadata_id not in by_id:
                raise AssertionError(f"packet-in metadata id {md.metadata_id} is not in the p4info")
            names[by_id[md.metadata_id]] = decode(md.value)
        return names

    def expect_packet_in(self, expected, timeout=2.0):
        """Waits for a packet-in whose payload is `expected`, byte for byte;
        returns its metadata by name. Other packet-ins fail the test."""
        packet = self.client.packet_in(timeout)
        if packet is None:
            raise AssertionError(f"no packet-in within {timeout} s")
        if packet.payload != bytes(expected):
            raise AssertionError(f"packet-in payload differs:\n  got  {packet.payload.hex()}"
                                 f"\n  want {bytes(expected).hex()}")
        return self.packet_in_metadata(packet)

    def expect_no_packet_in(self, timeout=0.5):
        packet = self.client.packet_in(timeout)
        if packet is not None:
            raise AssertionError(f"unexpected packet-in: {packet.payload.hex()}")

    # --- cleanup --------------------------------------------------------

    def close(self):
        try:
            for meter_id, index in self._written_meters:
                self.client.modify(Client.meter_entry(meter_id, index))
            for pre in reversed(self._written_pre):
                try:
                    self.client.delete(pre)
                except WriteError:
                    pass  # the test may have deleted it itself
            self.client.clear_tables()
        finally:
            for port in self.ports.values():
                port.close()
            self.client.close()

