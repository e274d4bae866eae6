/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.flowbuf.proto.buffer.v1.ArmTriggerRequest;
import org.flowbuf.proto.buffer.v1.ArmTriggerResponse;
import org.flowbuf.proto.buffer.v1.BatchRequest;
import org.flowbuf.proto.buffer.v1.BatchResponse;
import org.flowbuf.proto.buffer.v1.BindRequest;
import org.flowbuf.proto.buffer.v1.BindResponse;
import org.flowbuf.proto.buffer.v1.Buffer;
import org.flowbuf.proto.buffer.v1.BufferConfig;
import org.flowbuf.proto.buffer.v1.BufferAgentGrpc;
import org.flowbuf.proto.buffer.v1.BufferStats;
import org.flowbuf.proto.buffer.v1.Capabilities;
import org.flowbuf.proto.buffer.v1.GetCapabilitiesRequest;
import org.flowbuf.proto.buffer.v1.CreateBufferRequest;
import org.flowbuf.proto.buffer.v1.CreateVportRequest;
import org.flowbuf.proto.buffer.v1.Operation;
import org.flowbuf.proto.buffer.v1.PurgeUpToRequest;
import org.flowbuf.proto.buffer.v1.PurgeUpToResponse;
import org.flowbuf.proto.buffer.v1.QueryBufferRequest;
import org.flowbuf.proto.buffer.v1.ReportSync;
import org.flowbuf.proto.buffer.v1.ListBuffersRequest;
import org.flowbuf.proto.buffer.v1.ListBuffersResponse;
import org.flowbuf.proto.buffer.v1.ListVportsRequest;
import org.flowbuf.proto.buffer.v1.ListVportsResponse;
import org.flowbuf.proto.buffer.v1.SetVportModeRequest;
import org.flowbuf.proto.buffer.v1.TriggerFire;
import org.flowbuf.proto.buffer.v1.Vport;
import org.flowbuf.proto.buffer.v1.VportConfig;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A buffer agent for tests: records what it was asked (as operations, in
 * order, with the app id) and fails calls with statuses queued by the test.
 */
public class FakeBufferAgent extends BufferAgentGrpc.BufferAgentImplBase {

    /** Calls received: "RPC app_id" then the operation, for assertions. */
    public final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    /** Operations applied, in order (batches flattened). */
    public final List<Operation> applied = Collections.synchronizedList(new ArrayList<>());
    /**
     * GetCapabilities calls (a client's reachability check), apart from
     * {@link #calls}: they change nothing and never take a queued failure.
     */
    public final AtomicInteger capabilityCalls = new AtomicInteger();
    private final Deque<String> failingRpcs = new ArrayDeque<>();
    private final Deque<Status> failures = new ArrayDeque<>();
    private volatile long occupancy;
    private final Map<String, ArmTriggerRequest> triggers = new ConcurrentHashMap<>();
    private final Map<String, Long> fired = new ConcurrentHashMap<>();
    private final Map<String, TriggerFire> lastFire = new ConcurrentHashMap<>();
    private volatile List<Buffer> listedBuffers = List.of();
    private volatile List<Vport> listedVports = List.of();

    /**
     * A buffer as ListBuffers reports it.
     *
     * @param id     buffer id
     * @param vport  the vport it is bound to
     * @param config its config
     * @param held   packets it holds
     * @return the listed buffer
     */
    public static Buffer listedBuffer(String id, String vport, BufferConfig config, long held) {
        return Buffer.newBuilder().setBufferId(id).setConfig(config).addVportIds(vport)
                .setStats(BufferStats.newBuilder().setOccupancyPackets(held)).build();
    }

    /**
     * A vport in RX mode as ListVports reports it.
     *
     * @param id vport id
     * @return the listed vport
     */
    public static Vport listedRxVport(String id) {
        return Vport.newBuilder().setVportId(id).setConfig(VportConfig.newBuilder().setMode(
                org.flowbuf.proto.buffer.v1.VportMode.VPORT_MODE_RX)).build();
    }

    /**
     * Sets what ListBuffers and ListVports answer (what the agent "has").
     *
     * @param buffers buffers
     * @param vports  vports
     */
    public void setListed(List<Buffer> buffers, List<Vport> vports) {
        this.listedBuffers = List.copyOf(buffers);
        this.listedVports = List.copyOf(vports);
    }

    /**
     * Makes the next call fail.
     *
     * @param status the status to answer with
     */
    public synchronized void failNext(Status status) {
        failNext("*", status);
    }

    /**
     * Makes the next call of one RPC fail.
     *
     * @param rpc    RPC name, e.g. "SetVportMode", or "*" for any
     * @param status the status to answer with
     */
    public synchronized void failNext(String rpc, Status status) {
        failingRpcs.add(rpc);
        failures.add(status);
    }

    /**
     * Sets what QueryBuffer reports as occupancy.
     *
     * @param packets packets held
     */
    public void setOccupancy(long packets) {
        this.occupancy = packets;
    }

    /** Milliseconds every call but GetCapabilities takes before it answers (a slow kernel). */
    public volatile long delayMs;

    private synchronized boolean failed(String rpc, StreamObserver<?> out) {
        if (delayMs > 0) {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String target = failingRpcs.peek();
        if (target == null || !(target.equals("*") || target.equals(rpc))) {
            return false;
        }
        failingRpcs.poll();
        out.onError(failures.poll().asRuntimeException());
        return true;
    }

    @Override
    public void getCapabilities(GetCapabilitiesRequest req, StreamObserver<Capabilities> out) {
        capabilityCalls.incrementAndGet();
        out.onNext(Capabilities.newBuilder().setApiVersion("v1").build());
        out.onCompleted();
    }

    @Override
    public void createBuffer(CreateBufferRequest req, StreamObserver<Buffer> out) {
        calls.add("CreateBuffer " + req.getAppId());
        if (failed("CreateBuffer", out)) {
            return;
        }
        applied.add(Operation.newBuilder().setCreateBuffer(req).build());
        out.onNext(Buffer.newBuilder().setBufferId(req.getBufferId()).build());
        out.onCompleted();
    }

    @Override
    public void createVport(CreateVportRequest req, StreamObserver<Vport> out) {
        calls.add("CreateVport " + req.getAppId());
        if (failed("CreateVport", out)) {
            return;
        }
        applied.add(Operation.newBuilder().setCreateVport(req).build());
        out.onNext(Vport.newBuilder().setVportId(req.getVportId()).build());
        out.onCompleted();
    }

    @Override
    public void setVportMode(SetVportModeRequest req, StreamObserver<Vport> out) {
        calls.add("SetVportMode " + req.getAppId());
        if (failed("SetVportMode", out)) {
            return;
        }
        applied.add(Operation.newBuilder().setSetVportMode(req).build());
        out.onNext(Vport.newBuilder().setVportId(req.getVportId()).build());
        out.onCompleted();
    }

    @Override
    public void bind(BindRequest req, StreamObserver<BindResponse> out) {
        calls.add("Bind " + req.getAppId());
        if (failed("Bind", out)) {
            return;
        }
        applied.add(Operation.newBuilder().setBind(req).build());
        out.onNext(BindResponse.getDefaultInstance());
        out.onCompleted();
    }

    @Override
    public void armTrigger(ArmTriggerRequest req, StreamObserver<ArmTriggerResponse> out) {
        calls.add("ArmTrigger " + req.getAppId() + " " + req.getBufferId() + " "
                          + req.getSetVportModesCount()
                          + (req.getPurgeToReport().isEmpty() ? ""
                : " purging " + req.getPurgeToReport()));
        if (failed("ArmTrigger", out)) {
            return;
        }
        boolean wasArmed = (req.getSetVportModesCount() == 0 ? triggers.remove(req.getBufferId())
                : triggers.put(req.getBufferId(), req)) != null;
        ArmTriggerResponse.Builder reply = ArmTriggerResponse.newBuilder().setWasArmed(wasArmed);
        if (lastFire.containsKey(req.getBufferId())) {
            reply.setLastFire(lastFire.get(req.getBufferId()));
        }
        out.onNext(reply.build());
        out.onCompleted();
    }

    /** An agent restart: every trigger, and what fired, is forgotten. */
    public void restart() {
        triggers.clear();
        lastFire.clear();
    }

    /**
     * A packet enters a buffer: its armed trigger, if any, sets its modes
     * (after a purge that found the report and dropped nothing, when one
     * was armed).
     *
     * @param bufferId the trigger buffer
     * @return whether a trigger fired
     */
    public boolean packetInto(String bufferId) {
        ArmTriggerRequest armed = triggers.get(bufferId);
        return armed != null && packetInto(bufferId, TriggerFire.newBuilder().setModesSet(true)
                .setReportSync(armed.getPurgeToReport().isEmpty()
                                       ? ReportSync.REPORT_SYNC_UNSPECIFIED
                                       : ReportSync.REPORT_SYNC_SYNCED).build());
    }

    /**
     * A packet enters a buffer: its armed trigger, if any, fires as
     * scripted (its modes are set only when the fire says so).
     *
     * @param bufferId the trigger buffer
     * @param fire     what the fire does
     * @return whether a trigger fired
     */
    public boolean packetInto(String bufferId, TriggerFire fire) {
        ArmTriggerRequest armed = triggers.remove(bufferId);
        if (armed == null) {
            return false;
        }
        if (fire.getModesSet()) {
            armed.getSetVportModesList().forEach(
                    m -> applied.add(Operation.newBuilder().setSetVportMode(m).build()));
            fired.merge(bufferId, 1L, Long::sum);
        }
        lastFire.put(bufferId, fire);
        return true;
    }

    @Override
    public void batch(BatchRequest req, StreamObserver<BatchResponse> out) {
        calls.add("Batch " + req.getAppId());
        if (failed("Batch", out)) {
            return;
        }
        applied.addAll(req.getOperationsList());
        out.onNext(BatchResponse.getDefaultInstance());
        out.onCompleted();
    }

    /**
     * PurgeUpTo finds the packet when its IPv4 id is below the occupancy and
     * purges the packets before it (and it, when inclusive).
     */
    @Override
    public void purgeUpTo(PurgeUpToRequest req, StreamObserver<PurgeUpToResponse> out) {
        calls.add("PurgeUpTo " + req.getAppId() + " " + req.getPacketId().getIpv4Id());
        if (failed("PurgeUpTo", out)) {
            return;
        }
        long position = req.getPacketId().getIpv4Id();
        boolean found = position < occupancy;
        // Awaited, a packet not held yet comes after all it holds: all purged.
        boolean awaiting = !found && req.getAwaitArrival();
        long purged = found ? position + (req.getInclusive() ? 1 : 0) : awaiting ? occupancy : 0;
        out.onNext(PurgeUpToResponse.newBuilder().setFound(found).setAwaiting(awaiting)
                           .setPurgedPackets(purged).build());
        out.onCompleted();
    }

    @Override
    public void queryBuffer(QueryBufferRequest req, StreamObserver<Buffer> out) {
        calls.add("QueryBuffer " + req.getAppId());
        if (failed("QueryBuffer", out)) {
            return;
        }
        out.onNext(Buffer.newBuilder().setBufferId(req.getBufferId())
                           .setStats(BufferStats.newBuilder().setOccupancyPackets(occupancy)
                                             .setTriggerArmed(triggers.containsKey(req.getBufferId()))
                                             .setTriggersFired(fired.getOrDefault(req.getBufferId(), 0L)))
                           .build());
        out.onCompleted();
    }

    @Override
    public void listBuffers(ListBuffersRequest req, StreamObserver<ListBuffersResponse> out) {
        calls.add("ListBuffers " + req.getAppId());
        if (failed("ListBuffers", out)) {
            return;
        }
        out.onNext(ListBuffersResponse.newBuilder().addAllBuffers(listedBuffers).build());
        out.onCompleted();
    }

    @Override
    public void listVports(ListVportsRequest req, StreamObserver<ListVportsResponse> out) {
        calls.add("ListVports " + req.getAppId());
        if (failed("ListVports", out)) {
            return;
        }
        out.onNext(ListVportsResponse.newBuilder().addAllVports(listedVports).build());
        out.onCompleted();
    }
}
