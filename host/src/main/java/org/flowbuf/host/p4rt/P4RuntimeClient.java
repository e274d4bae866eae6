/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CapabilitiesRequest;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.DigestList;
import p4.v1.P4RuntimeOuterClass.DigestListAck;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Error;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketMetadata;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.PacketReplicationEngineEntry;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import org.onlab.util.ImmutableByteSequence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A P4Runtime client of one device: the stream channel (arbitration, packet
 * I/O, digests with acks) and the unary calls a controller needs (pipeline
 * push, writes). Writes carry the election id the client won with.
 */
public final class P4RuntimeClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(P4RuntimeClient.class);
    /** How long a new stream waits for the one it replaces to end. */
    static final Duration OLD_STREAM_WAIT = Duration.ofSeconds(2);

    private final ManagedChannel channel;
    private final long deviceId;
    private final Uint128 electionId;
    private final Duration deadline;
    private volatile CompletableFuture<MasterArbitrationUpdate> arbitration =
            new CompletableFuture<>();
    private volatile Consumer<PacketIn> packetIns = p -> { };
    private volatile Runnable streamClosed = () -> { };
    /** Receivers of digest lists by digest id. */
    private final Map<Integer, Consumer<DigestList>> digests = new ConcurrentHashMap<>();
    private StreamObserver<StreamMessageRequest> stream;
    private ResponseObserver streamObserver;

    /**
     * Creates a client; nothing is sent until {@link #becomePrimary}.
     *
     * @param channel    channel to the target
     * @param deviceId   P4Runtime device id
     * @param electionId election id to claim primacy with
     * @param deadline   deadline of each unary call
     */
    public P4RuntimeClient(ManagedChannel channel, long deviceId, long electionId,
                           Duration deadline) {
        this.channel = Objects.requireNonNull(channel);
        this.deviceId = deviceId;
        this.electionId = Uint128.newBuilder().setLow(electionId).build();
        this.deadline = Objects.requireNonNull(deadline);
    }

    /**
     * Opens the stream channel and waits until the target names this client
     * primary.
     *
     * @param timeout how long to wait
     * @throws P4RuntimeWriteException when another client is primary, or the
     *                                 target refuses or does not answer
     */
    public synchronized void becomePrimary(Duration timeout) {
        // Again after the stream closed (the target restarted): a new stream
        // and a new arbitration; the old stream's observer no longer reports.
        CompletableFuture<MasterArbitrationUpdate> arbitration = new CompletableFuture<>();
        this.arbitration = arbitration;
        if (stream != null) {
            stream.onCompleted();
            awaitClosed(streamObserver);
        }
        channel.resetConnectBackoff();
        streamObserver = new ResponseObserver(arbitration);
        stream = P4RuntimeGrpc.newStub(channel).streamChannel(streamObserver);
        stream.onNext(StreamMessageRequest.newBuilder().setArbitration(
                MasterArbitrationUpdate.newBuilder().setDeviceId(deviceId)
                        .setElectionId(electionId)).build());
        MasterArbitrationUpdate answer;
        try {
            answer = arbitration.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new P4RuntimeWriteException(Status.Code.CANCELLED, "interrupted", List.of());
        } catch (ExecutionException e) {
            throw failure("arbitration", e.getCause());
        } catch (TimeoutException e) {
            throw new P4RuntimeWriteException(Status.Code.DEADLINE_EXCEEDED,
                                              "no arbitration answer from device " + deviceId
                                                      + " within " + timeout, List.of());
        }
        if (answer.getStatus().getCode() != Status.Code.OK.value()) {
            throw new P4RuntimeWriteException(Status.fromCodeValue(answer.getStatus().getCode())
                                                      .getCode(),
                                              "not primary for device " + deviceId + ": "
                                                      + answer.getStatus().getMessage(), List.of());
        }
    }

    /**
     * The cookie of the pipeline the device runs.
     *
     * @return cookie, empty when no pipeline was set
     */
    public Optional<Long> pipelineCookie() {
        try {
            return Optional.of(blocking().getForwardingPipelineConfig(
                    GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(deviceId)
                            .setResponseType(GetForwardingPipelineConfigRequest.ResponseType
                                                     .COOKIE_ONLY).build())
                                       .getConfig().getCookie().getCookie());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                return Optional.empty();
            }
            throw failure("pipeline query", e);
        }
    }

    /**
     * Pushes a pipeline (VERIFY_AND_COMMIT), which resets the device's tables.
     *
     * @param p4info       the p4info
     * @param deviceConfig target-specific config (bmv2 JSON), may be empty
     * @param cookie       identifies this pipeline in later queries
     */
    public void setPipeline(p4.config.v1.P4InfoOuterClass.P4Info p4info, ByteString deviceConfig,
                            long cookie) {
        SetForwardingPipelineConfigRequest request = SetForwardingPipelineConfigRequest.newBuilder()
                .setDeviceId(deviceId).setElectionId(electionId)
                .setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT)
                .setConfig(ForwardingPipelineConfig.newBuilder().setP4Info(p4info)
                                   .setP4DeviceConfig(deviceConfig)
                                   .setCookie(ForwardingPipelineConfig.Cookie.newBuilder()
                                                      .setCookie(cookie)))
                .build();
        try {
            blocking().setForwardingPipelineConfig(request);
        } catch (StatusRuntimeException e) {
            throw failure("pipeline push", e);
        }
    }

    /**
     * Inserts table entries in one Write.
     *
     * @param entries entries
     */
    public void insert(List<TableEntry> entries) {
        write(Update.Type.INSERT, entries);
    }

    /**
     * Changes the actions of installed table entries in one Write.
     *
     * @param entries entries (match and priority identify them)
     */
    public void modify(List<TableEntry> entries) {
        write(Update.Type.MODIFY, entries);
    }

    /**
     * Deletes table entries in one Write.
     *
     * @param entries entries (match keys suffice)
     */
    public void delete(List<TableEntry> entries) {
        write(Update.Type.DELETE, entries);
    }

    /**
     * Reads every entry of one table.
     *
     * @param tableId p4info id of the table
     * @return its entries
     * @throws P4RuntimeWriteException when the target refuses or does not answer
     */
    public List<TableEntry> readTable(int tableId) {
        ReadRequest request = ReadRequest.newBuilder().setDeviceId(deviceId)
                .addEntities(Entity.newBuilder().setTableEntry(
                        TableEntry.newBuilder().setTableId(tableId))).build();
        List<TableEntry> entries = new ArrayList<>();
        try {
            blocking().read(request).forEachRemaining(r -> r.getEntitiesList()
                    .forEach(e -> entries.add(e.getTableEntry())));
        } catch (StatusRuntimeException e) {
            throw failure("read", e);
        }
        return entries;
    }

    /**
     * Reads the entries a query names: one entry when it carries a match
     * (with its direct counter when it carries an empty counter_data).
     *
     * @param query a table entry naming a table, and a match and priority
     * @return what the target answered (empty when it has no such entry)
     * @throws P4RuntimeWriteException when the target refuses or does not answer
     */
    public List<TableEntry> readEntries(TableEntry query) {
        ReadRequest request = ReadRequest.newBuilder().setDeviceId(deviceId)
                .addEntities(Entity.newBuilder().setTableEntry(query)).build();
        List<TableEntry> entries = new ArrayList<>();
        try {
            blocking().read(request).forEachRemaining(r -> r.getEntitiesList()
                    .forEach(e -> entries.add(e.getTableEntry())));
        } catch (StatusRuntimeException e) {
            throw failure("read", e);
        }
        return entries;
    }

    /**
     * Reads a table's default entry.
     *
     * @param tableId p4info id of the table
     * @return the default entry
     * @throws P4RuntimeWriteException when the target refuses or does not answer
     */
    public TableEntry readDefaultEntry(int tableId) {
        ReadRequest request = ReadRequest.newBuilder().setDeviceId(deviceId)
                .addEntities(Entity.newBuilder().setTableEntry(
                        TableEntry.newBuilder().setTableId(tableId).setIsDefaultAction(true)))
                .build();
        try {
            return blocking().read(request).next().getEntities(0).getTableEntry();
        } catch (StatusRuntimeException e) {
            throw failure("read", e);
        }
    }

    /**
     * Reads cells of an indexed counter in one Read.
     *
     * @param counterId p4info id of the counter
     * @param indexes   its cells
     * @return bytes counted by cell (cells the target did not answer are absent)
     * @throws P4RuntimeWriteException when the target refuses or does not answer
     */
    public Map<Long, Long> readCounterBytes(int counterId, Collection<Long> indexes) {
        ReadRequest.Builder request = ReadRequest.newBuilder().setDeviceId(deviceId);
        indexes.forEach(i -> request.addEntities(Entity.newBuilder().setCounterEntry(
                CounterEntry.newBuilder().setCounterId(counterId)
                        .setIndex(Index.newBuilder().setIndex(i)))));
        Map<Long, Long> bytes = new HashMap<>();
        try {
            blocking().read(request.build()).forEachRemaining(r -> r.getEntitiesList().forEach(
                    e -> bytes.put(e.getCounterEntry().getIndex().getIndex(),
                                   e.getCounterEntry().getData().getByteCount())));
        } catch (StatusRuntimeException e) {
            throw failure("read", e);
        }
        return bytes;
    }

    /**
     * Writes packet replication engine entries (multicast groups, clone
     * sessions) in one Write.
     *
     * @param type    INSERT (the entries must be new), MODIFY (replaces the
     *                replicas of existing ones) or DELETE (ids suffice)
     * @param entries entries
     * @throws P4RuntimeWriteException when the target refuses the Write,
     *                                 with the code of the first failed update
     */
    public void writePre(Update.Type type, List<PacketReplicationEngineEntry> entries) {
        List<Entity> entities = new ArrayList<>();
        entries.forEach(e -> entities.add(Entity.newBuilder()
                                                  .setPacketReplicationEngineEntry(e).build()));
        writeEntities(type, entities);
    }

    /**
     * Sends Writes without updates one after the other, so that the JIT
     * compiles the path of a Write (gRPC, Netty, protobuf) before the ones
     * that count. A host writes rarely (a hybrid UPF's promotion writes
     * twice): without this, its Writes ran interpreted, and a Write's
     * round trip on loopback took 0.9-1.5 ms at p50 instead of 0.2-0.7 ms.
     * A Write without updates changes nothing (P4Runtime targets answer it
     * OK); a target that refuses it gets Capabilities requests instead,
     * answered or not (their round trip is much the same). Stops early when
     * the target is unreachable or the thread is interrupted.
     *
     * @param calls how many round trips
     * @return how many were made
     */
    public int warmUp(int calls) {
        boolean writes = true;
        for (int i = 0; i < calls; i++) {
            if (Thread.currentThread().isInterrupted()) {
                return i;
            }
            try {
                if (writes) {
                    blocking().write(WriteRequest.newBuilder().setDeviceId(deviceId)
                                             .setElectionId(electionId).build());
                } else {
                    blocking().capabilities(CapabilitiesRequest.getDefaultInstance());
                }
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                        || code == Status.Code.CANCELLED) {
                    return i + 1;
                }
                writes = false;
            }
        }
        return calls;
    }

    /**
     * Writes updates of any entities in one Write.
     *
     * @param updates updates, in order
     * @throws P4RuntimeWriteException when the target refuses the Write,
     *                                 with the code of the first failed update
     */
    public void write(List<Update> updates) {
        WriteRequest.Builder request = WriteRequest.newBuilder().setDeviceId(deviceId)
                .setElectionId(electionId).addAllUpdates(updates);
        try {
            blocking().write(request.build());
        } catch (StatusRuntimeException e) {
            throw failure("write", e);
        }
    }

    private void write(Update.Type type, List<TableEntry> entries) {
        List<Entity> entities = new ArrayList<>();
        entries.forEach(e -> entities.add(Entity.newBuilder().setTableEntry(e).build()));
        writeEntities(type, entities);
    }

    private void writeEntities(Update.Type type, List<Entity> entities) {
        WriteRequest.Builder request = WriteRequest.newBuilder().setDeviceId(deviceId)
                .setElectionId(electionId);
        entities.forEach(e -> request.addUpdates(Update.newBuilder().setType(type).setEntity(e)));
        try {
            blocking().write(request.build());
        } catch (StatusRuntimeException e) {
            throw failure("write", e);
        }
    }

    /**
     * Sends a packet out through the pipeline's packet_out header.
     *
     * @param payload  the frame
     * @param metadata packet_out metadata values by name
     * @param p4info   the p4info the names resolve in
     */
    public void packetOut(byte[] payload, Map<String, Long> metadata, P4InfoIndex p4info) {
        ControllerPacketMetadata header = p4info.packetMetadata("packet_out");
        PacketOut.Builder packet = PacketOut.newBuilder().setPayload(ByteString.copyFrom(payload));
        for (ControllerPacketMetadata.Metadata m : header.getMetadataList()) {
            Long value = metadata.get(m.getName());
            if (value != null) {
                packet.addMetadata(PacketMetadata.newBuilder().setMetadataId(m.getId()).setValue(
                        PiEntryEncoder.canonical(ImmutableByteSequence.copyFrom(value),
                                                 m.getBitwidth(), m.getName())));
            }
        }
        synchronized (this) {
            stream.onNext(StreamMessageRequest.newBuilder().setPacket(packet).build());
        }
    }

    /**
     * Sets who receives packet-ins.
     *
     * @param receiver receiver
     */
    public void onPacketIn(Consumer<PacketIn> receiver) {
        this.packetIns = Objects.requireNonNull(receiver);
    }

    /**
     * Sets what runs when the stream channel of the latest
     * {@link #becomePrimary} closes (the target went away or dropped this
     * client): the client is then no longer primary.
     *
     * @param listener called once per closed stream, on a gRPC thread
     */
    public void onStreamClosed(Runnable listener) {
        this.streamClosed = Objects.requireNonNull(listener);
    }

    /**
     * Sets who receives the lists of one digest (each feature its own);
     * each list is acknowledged after the receiver returns, and a list
     * nobody receives at once.
     *
     * @param digestId the digest's p4info id
     * @param receiver receiver
     */
    public void onDigest(int digestId, Consumer<DigestList> receiver) {
        digests.put(digestId, Objects.requireNonNull(receiver));
    }

    // A target holds a stream's election id until it has seen the stream
    // end: a new stream's arbitration that overtakes the old stream's
    // half-close is refused (P4Runtime: the id is in use by another client;
    // seen once in CI against pbswitch). So the old stream's end is awaited,
    // for at most OLD_STREAM_WAIT: a target that never ends it must not
    // hold the new arbitration up for long.
    private static void awaitClosed(ResponseObserver old) {
        try {
            old.closed.get(OLD_STREAM_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("the replaced stream did not end in {}: {}", OLD_STREAM_WAIT, e.toString());
        }
    }

    @Override
    public synchronized void close() {
        arbitration = new CompletableFuture<>();  // the closing stream is no longer current
        if (stream != null) {
            stream.onCompleted();
            stream = null;
        }
    }

    private P4RuntimeGrpc.P4RuntimeBlockingStub blocking() {
        return P4RuntimeGrpc.newBlockingStub(channel)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void acknowledge(DigestList list) {
        synchronized (this) {
            if (stream != null) {
                stream.onNext(StreamMessageRequest.newBuilder().setDigestAck(
                        DigestListAck.newBuilder().setDigestId(list.getDigestId())
                                .setListId(list.getListId())).build());
            }
        }
    }

    /**
     * Turns a gRPC failure into an exception with the per-update errors that
     * P4Runtime puts in the status details.
     *
     * @param what the call that failed
     * @param t    its failure
     * @return the exception
     */
    static P4RuntimeWriteException failure(String what, Throwable t) {
        Status status = Status.fromThrowable(t);
        List<String> updates = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        Status.Code firstFailed = null;
        com.google.rpc.Status details = StatusProto.fromThrowable(t);
        boolean perUpdate = details != null && details.getDetailsCount() > 0;
        if (perUpdate) {
            for (int i = 0; i < details.getDetailsCount(); i++) {
                Any any = details.getDetails(i);
                try {
                    Error error = any.unpack(Error.class);
                    if (error.getCanonicalCode() != Status.Code.OK.value()) {
                        Status.Code code = Status.fromCodeValue(error.getCanonicalCode()).getCode();
                        firstFailed = firstFailed == null ? code : firstFailed;
                        updates.add(code + ": " + error.getMessage());
                        failed.add(i);
                    }
                } catch (InvalidProtocolBufferException e) {
                    updates.add("unreadable error detail " + any.getTypeUrl());
                    failed.add(i);
                }
            }
        }
        Status.Code code = firstFailed != null ? firstFailed : status.getCode();
        String message = what + " refused: " + (updates.isEmpty()
                ? status.getCode() + " " + status.getDescription() : String.join("; ", updates));
        return new P4RuntimeWriteException(code, message, updates,
                                           perUpdate ? failed : null);
    }

    /** Dispatches what the target sends on the stream channel. */
    private final class ResponseObserver implements StreamObserver<StreamMessageResponse> {

        private final CompletableFuture<MasterArbitrationUpdate> arbitration;
        /** Completes when the target has ended the stream, either way. */
        private final CompletableFuture<Void> closed = new CompletableFuture<>();

        ResponseObserver(CompletableFuture<MasterArbitrationUpdate> arbitration) {
            this.arbitration = arbitration;
        }

        // Only the stream of the latest arbitration speaks for the client.
        private boolean current() {
            return P4RuntimeClient.this.arbitration == arbitration;
        }

        @Override
        public void onNext(StreamMessageResponse response) {
            switch (response.getUpdateCase()) {
                case ARBITRATION:
                    arbitration.complete(response.getArbitration());
                    break;
                case PACKET:
                    packetIns.accept(response.getPacket());
                    break;
                case DIGEST:
                    digests.getOrDefault(response.getDigest().getDigestId(), d -> { })
                            .accept(response.getDigest());
                    acknowledge(response.getDigest());
                    break;
                case ERROR:
                    LOG.warn("device {}: stream error {}", deviceId, response.getError());
                    break;
                default:
                    LOG.debug("device {}: ignored stream message {}", deviceId,
                              response.getUpdateCase());
            }
        }

        @Override
        public void onError(Throwable t) {
            closed.complete(null);
            boolean wasPrimary = arbitration.isDone() && !arbitration.isCompletedExceptionally();
            arbitration.completeExceptionally(t);
            if (current()) {
                LOG.warn("device {}: stream channel closed: {}", deviceId, Status.fromThrowable(t));
                if (wasPrimary) {
                    streamClosed.run();
                }
            }
        }

        @Override
        public void onCompleted() {
            closed.complete(null);
            boolean wasPrimary = arbitration.isDone() && !arbitration.isCompletedExceptionally();
            arbitration.completeExceptionally(new IllegalStateException("stream closed"));
            if (current() && wasPrimary) {
                streamClosed.run();
            }
        }
    }
}
