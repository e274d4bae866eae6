# SPDX-License-Identifier: Apache-2.0
"""A small P4Runtime client over the official generated modules.

One client is one controller: it opens the stream channel, takes part in
the master arbitration with its election id, and keeps the packet-ins the
target sends. Writes that fail raise WriteError with the per-update p4.v1.Error
details, which is what the error-case tests check.
"""
import queue
import threading
import time

import grpc
from google.rpc import code_pb2, status_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

_STOP = object()


class WriteError(Exception):
    """A failed Write: the gRPC status and one (code name, message) per update."""

    def __init__(self, rpc_error):
        self.code = rpc_error.code()
        self.details = rpc_error.details()
        self.updates = _per_update_errors(rpc_error)
        super().__init__(f"Write failed with {self.code.name}: {self.details}; "
                         f"per update: {self.updates}")

    def update_codes(self):
        return [code for code, _ in self.updates]


def _per_update_errors(rpc_error):
    """The p4.v1.Error of each update, from the google.rpc.Status details
    that P4Runtime servers attach to a failed batch."""
    for key, value in rpc_error.trailing_metadata() or ():
        if key != "grpc-status-details-bin":
            continue
        status = status_pb2.Status.FromString(value)
        errors = []
        for detail in status.details:
            error = p4runtime_pb2.Error()
            detail.Unpack(error)
            errors.append((code_pb2.Code.Name(error.canonical_code), error.message))
        return errors
    return []


class ArbitrationError(Exception):
    pass


class Client:
    """A controller of one device under one election id."""

    def __init__(self, address, device_id, election_id=(0, 1), timeout=10.0):
        self.address = address
        self.device_id = device_id
        self.election_id = p4runtime_pb2.Uint128(high=election_id[0], low=election_id[1])
        self.timeout = timeout
        self.channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(self.channel).result(timeout=timeout)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.packet_ins = queue.Queue()
        self.digests = queue.Queue()
        self.stream_errors = queue.Queue()
        self.is_primary = self._arbitrate_when_free()

    # --- stream channel -------------------------------------------------

    def _open_stream(self):
        self._arbitration = queue.Queue()
        self._requests = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._requests.get, _STOP))
        self._reader = threading.Thread(target=self._read_stream, daemon=True)
        self._reader.start()

    def _arbitrate_when_free(self):
        """Opens the stream and arbitrates. A switch refuses an election id
        that an open stream of the same role holds (INVALID_ARGUMENT); the
        stream of the client before this one (the previous test's, closed
        with the same id) is cancelled on our side at once but dropped by
        the switch when it gets to it, which a loaded machine delays. Such
        a refusal is retried on a new stream until the timeout."""
        deadline = time.monotonic() + self.timeout
        while True:
            self._open_stream()
            try:
                return self._arbitrate()
            except ArbitrationError as err:
                held = (isinstance(err.__cause__, grpc.RpcError)
                        and err.__cause__.code() == grpc.StatusCode.INVALID_ARGUMENT)
                if not held or time.monotonic() > deadline:
                    raise
                self._close_stream()
                time.sleep(0.05)

    def _read_stream(self):
        try:
            for response in self._stream:
                kind = response.WhichOneof("update")
                if kind == "arbitration":
                    self._arbitration.put(response.arbitration)
                elif kind == "packet":
                    self.packet_ins.put(response.packet)
                elif kind == "digest":
                    self.digests.put(response.digest)
                elif kind == "error":
                    self.stream_errors.put(response.error)
        except grpc.RpcError as err:
            # The stream ends with CANCELLED when close() cancels it; any
            # other end is reported to whoever waits for arbitration.
            if err.code() != grpc.StatusCode.CANCELLED:
                self._arbitration.put(err)

    def _arbitrate(self):
        request = p4runtime_pb2.StreamMessageRequest()
        request.arbitration.device_id = self.device_id
        request.arbitration.election_id.CopyFrom(self.election_id)
        self._requests.put(request)
        try:
            answer = self._arbitration.get(timeout=self.timeout)
        except queue.Empty:
            raise ArbitrationError(f"no arbitration answer from {self.address} "
                                   f"in {self.timeout} s") from None
        if isinstance(answer, Exception):
            raise ArbitrationError(f"stream to {self.address} failed: {answer}") from answer
        return answer.status.code == code_pb2.OK

    def enable_digest(self, digest_id):
        """Asks for a digest's lists, one per message, sent at once."""
        entry = p4runtime_pb2.DigestEntry(digest_id=digest_id)
        entry.config.max_timeout_ns = 0
        entry.config.max_list_size = 1
        entry.config.ack_timeout_ns = 1_000_000_000
        try:
            self.insert(entry)
        except WriteError as e:
            if e.update_codes() != ["ALREADY_EXISTS"]:
                raise
            self.modify(entry)  # configured by an earlier test of this session

    def digest_list(self, timeout=2.0):
        """The next DigestList, acknowledged; None when none came in time."""
        try:
            digest = self.digests.get(timeout=timeout)
        except queue.Empty:
            return None
        ack = p4runtime_pb2.StreamMessageRequest()
        ack.digest_ack.digest_id = digest.digest_id
        ack.digest_ack.list_id = digest.list_id
        self._requests.put(ack)
        return digest

    def _close_stream(self):
        self._requests.put(_STOP)
        self._stream.cancel()
        self._reader.join(timeout=self.timeout)

    def close(self):
        self._close_stream()
        self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- pipeline -------------------------------------------------------

    def set_pipeline(self, p4info, device_config):
        request = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.device_id, election_id=self.election_id,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        request.config.p4info.CopyFrom(p4info)
        request.config.p4_device_config = device_config
        self.stub.SetForwardingPipelineConfig(request, timeout=self.timeout)

    def get_pipeline(self, response_type="ALL"):
        request = p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=self.device_id,
            response_type=p4runtime_pb2.GetForwardingPipelineConfigRequest.ResponseType.Value(
                response_type))
        return self.stub.GetForwardingPipelineConfig(request, timeout=self.timeout).config

    # --- write and read -------------------------------------------------

    def write(self, *updates, election_id=None):
        request = p4runtime_pb2.WriteRequest(device_id=self.device_id)
        request.election_id.CopyFrom(election_id or self.election_id)
        request.updates.extend(updates)
        try:
            self.stub.Write(request, timeout=self.timeout)
        except grpc.RpcError as err:
            raise WriteError(err) from None

    @staticmethod
    def update(kind, entity):
        """An Update of `kind` ("INSERT", "MODIFY", "DELETE") for a
        TableEntry, PacketReplicationEngineEntry or DirectCounterEntry."""
        update = p4runtime_pb2.Update(type=p4runtime_pb2.Update.Type.Value(kind))
        if isinstance(entity, p4runtime_pb2.TableEntry):
            update.entity.table_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.PacketReplicationEngineEntry):
            update.entity.packet_replication_engine_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.DirectCounterEntry):
            update.entity.direct_counter_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.CounterEntry):
            update.entity.counter_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.MeterEntry):
            update.entity.meter_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.RegisterEntry):
            update.entity.register_entry.CopyFrom(entity)
        elif isinstance(entity, p4runtime_pb2.DigestEntry):
            update.entity.digest_entry.CopyFrom(entity)
        else:
            raise TypeError(f"cannot write a {type(entity).__name__}")
        return update

    def insert(self, entity):
        self.write(self.update("INSERT", entity))

    def modify(self, entity):
        self.write(self.update("MODIFY", entity))

    def delete(self, entity):
        self.write(self.update("DELETE", entity))

    def read(self, entity):
        request = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        request.entities.add().CopyFrom(entity)
        found = []
        for response in self.stub.Read(request, timeout=self.timeout):
            found.extend(response.entities)
        return found

    def multicast_groups(self):
        """Every multicast group, by id (a wildcard read: the spec leaves open
        whether reading one absent group answers nothing or NOT_FOUND, and
        BMv2/PI answers NOT_FOUND)."""
        entity = p4runtime_pb2.Entity()
        entity.packet_replication_engine_entry.multicast_group_entry.multicast_group_id = 0
        groups = (e.packet_replication_engine_entry.multicast_group_entry
                  for e in self.read(entity))
        return {g.multicast_group_id: g for g in groups}

    def table_entries(self, table_id=0):
        """Every entry of one table, or of all tables for table_id 0."""
        entity = p4runtime_pb2.Entity()
        entity.table_entry.table_id = table_id
        return [e.table_entry for e in self.read(entity)]

    def direct_counter(self, entry):
        """(packets, bytes) of the direct counter of `entry`."""
        entity = p4runtime_pb2.Entity()
        entity.direct_counter_entry.table_entry.CopyFrom(entry)
        found = self.read(entity)
        if len(found) != 1:
            raise AssertionError(f"expected one direct counter entry, read {len(found)}")
        data = found[0].direct_counter_entry.data
        return data.packet_count, data.byte_count

    def counter(self, counter_id, index):
        """(packets, bytes) of one cell of an indexed counter."""
        entity = p4runtime_pb2.Entity()
        entity.counter_entry.counter_id = counter_id
        entity.counter_entry.index.index = index
        found = self.read(entity)
        if len(found) != 1:
            raise AssertionError(f"expected one counter entry, read {len(found)}")
        data = found[0].counter_entry.data
        return data.packet_count, data.byte_count

    @staticmethod
    def register_entry(register_id, index, data=None):
        """A RegisterEntry for one cell, holding data (bytes) when given."""
        entry = p4runtime_pb2.RegisterEntry(register_id=register_id)
        entry.index.index = index
        if data is not None:
            entry.data.bitstring = data
        return entry

    def register_cell(self, register_id, index):
        """The bytes one register cell holds."""
        found = self.read(p4runtime_pb2.Entity(register_entry=self.register_entry(register_id, index)))
        if len(found) != 1:
            raise AssertionError(f"expected one register entry, read {len(found)}")
        return found[0].register_entry.data.bitstring

    @staticmethod
    def meter_entry(meter_id, index, config=None):
        """A MeterEntry for one cell; config (cir, cburst, pir, pburst) or
        None, which a MODIFY makes the cell's default (unconfigured) again."""
        entry = p4runtime_pb2.MeterEntry(meter_id=meter_id)
        entry.index.index = index
        if config is not None:
            cir, cburst, pir, pburst = config
            entry.config.CopyFrom(p4runtime_pb2.MeterConfig(cir=cir, cburst=cburst, pir=pir,
                                                             pburst=pburst))
        return entry

    def clear_tables(self):
        """Deletes every non-constant entry of every table."""
        entries = [e for e in self.table_entries() if not e.is_const and not e.is_default_action]
        if entries:
            self.write(*(self.update("DELETE", _key_of(e)) for e in entries))

    # --- packet replication engine --------------------------------------

    @staticmethod
    def multicast_group(group_id, ports):
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        pre.multicast_group_entry.multicast_group_id = group_id
        for port in ports:
            pre.multicast_group_entry.replicas.add(egress_port=port, instance=1)
        return pre

    @staticmethod
    def clone_session(session_id, ports):
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        pre.clone_session_entry.session_id = session_id
        for port in ports:
            pre.clone_session_entry.replicas.add(egress_port=port, instance=1)
        return pre

    # --- packet I/O -----------------------------------------------------

    def packet_out(self, payload, metadata):
        """Sends `payload` with metadata {id: bytes} on the stream."""
        request = p4runtime_pb2.StreamMessageRequest()
        request.packet.payload = bytes(payload)
        for md_id, value in metadata.items():
            request.packet.metadata.add(metadata_id=md_id, value=value)
        self._requests.put(request)

    def stream_error(self, timeout=2.0):
        """The next StreamError the target sent, or None after `timeout` s."""
        try:
            return self.stream_errors.get(timeout=timeout)
        except queue.Empty:
            return None

    def packet_in(self, timeout=2.0):
        """The next packet-in, or None after `timeout` seconds."""
        try:
            return self.packet_ins.get(timeout=timeout)
        except queue.Empty:
            return None


def _key_of(entry):
    """The entry with only what identifies it (a DELETE carries no action)."""
    key = p4runtime_pb2.TableEntry(table_id=entry.table_id, priority=entry.priority)
    key.match.extend(entry.match)
    return key

