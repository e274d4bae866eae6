/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.VportId;
import org.flowbuf.api.VportMode;
import org.flowbuf.proto.buffer.v1.ArmTriggerRequest;
import org.flowbuf.proto.buffer.v1.ArmTriggerResponse;
import org.flowbuf.proto.buffer.v1.BatchRequest;
import org.flowbuf.proto.buffer.v1.BufferAgentGrpc;
import org.flowbuf.proto.buffer.v1.BufferStats;
import org.flowbuf.proto.buffer.v1.GetCapabilitiesRequest;
import org.flowbuf.proto.buffer.v1.ListBuffersRequest;
import org.flowbuf.proto.buffer.v1.ListBuffersResponse;
import org.flowbuf.proto.buffer.v1.ListVportsRequest;
import org.flowbuf.proto.buffer.v1.ListVportsResponse;
import org.flowbuf.proto.buffer.v1.Operation;
import org.flowbuf.proto.buffer.v1.PurgeUpToRequest;
import org.flowbuf.proto.buffer.v1.PurgeUpToResponse;
import org.flowbuf.proto.buffer.v1.QueryBufferRequest;
import org.flowbuf.proto.buffer.v1.SetVportModeRequest;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * gRPC client of a buffer agent. Every call has a deadline; only calls that
 * are idempotent are retried, and only when the agent was UNAVAILABLE.
 */
public final class DefaultBufferAgentClient implements BufferAgentClient {

    /** Deadline of one call; the agent answers in well under a millisecond. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(2);
    /**
     * Deadline of a call that creates or removes a vport: the agent sets
     * the vport's interface up, turns its offloads off and opens a packet
     * socket with rings, which wait for the kernel's rtnl lock and RCU grace
     * periods. With other namespace labs changing links beside it, one
     * vport create took about 2 s (a pause then failed as "unreachable"),
     * and an `ip link set down` in the mobility lab up to 32 s.
     */
    public static final Duration LINK_DEADLINE = Duration.ofSeconds(30);
    /** Attempts of an idempotent call (the first plus retries). */
    static final int ATTEMPTS = 3;
    private static final long RETRY_PAUSE_MS = 50;

    private final String agent;
    private final String appId;
    private final ManagedChannel channel;
    private final boolean ownsChannel;
    private final Duration deadline;
    private final Duration linkDeadline;

    /**
     * Creates a client on a channel.
     *
     * @param agent       agent name for messages (e.g. its address)
     * @param appId       application id sent with every call
     * @param channel     channel to the agent
     * @param ownsChannel whether close() shuts the channel down
     * @param deadline    deadline of each call
     */
    public DefaultBufferAgentClient(String agent, String appId, ManagedChannel channel,
                                    boolean ownsChannel, Duration deadline) {
        this.agent = Objects.requireNonNull(agent);
        this.appId = Objects.requireNonNull(appId);
        this.channel = Objects.requireNonNull(channel);
        this.ownsChannel = ownsChannel;
        this.deadline = Objects.requireNonNull(deadline);
        this.linkDeadline = deadline.compareTo(LINK_DEADLINE) > 0 ? deadline : LINK_DEADLINE;
    }

    @Override
    public void apply(List<AgentOperation> operations) {
        if (operations.isEmpty()) {
            return;
        }
        if (operations.size() == 1) {
            AgentOperation op = operations.get(0);
            Operation proto = op.toProto();
            call(() -> {
                applyOne(proto, stub(deadlineOf(List.of(proto))));
                return null;
            }, op.idempotent());
            return;
        }
        BatchRequest.Builder batch = BatchRequest.newBuilder().setAppId(appId);
        operations.forEach(op -> batch.addOperations(op.toProto()));
        Duration batchDeadline = deadlineOf(batch.getOperationsList());
        call(() -> stub(batchDeadline).batch(batch.build()), false);
    }

    /** The link deadline when an operation creates or removes a vport, else the call deadline. */
    private Duration deadlineOf(List<Operation> operations) {
        boolean touchesLinks = operations.stream().anyMatch(
                op -> op.getOpCase() == Operation.OpCase.CREATE_VPORT
                        || op.getOpCase() == Operation.OpCase.REMOVE_VPORT);
        return touchesLinks ? linkDeadline : deadline;
    }

    @Override
    public long occupancyPackets(BufferId id) {
        return queryStats(id).getOccupancyPackets();
    }

    @Override
    public BufferStatistics statistics(BufferId id) {
        return ProtoConverter.toStatistics(queryStats(id));
    }

    @Override
    public List<AgentBuffer> buffers() {
        ListBuffersResponse listed = call(() -> stub().listBuffers(
                ListBuffersRequest.newBuilder().setAppId(appId).build()), true);
        ListVportsResponse vports = call(() -> stub().listVports(
                ListVportsRequest.newBuilder().setAppId(appId).build()), true);
        return ProtoConverter.toAgentBuffers(listed.getBuffersList(), vports.getVportsList());
    }

    @Override
    public MarkerWatch watchMarker(BufferId id, MarkerPattern pattern, Runnable onSeen) {
        return MarkerSubscription.open(agent, appId, channel, id, pattern, onSeen, deadline);
    }

    @Override
    public Optional<Long> purgeUpTo(BufferId id, PacketId packetId, boolean inclusive) {
        PurgeUpToRequest request = purgeRequest(id, packetId).setInclusive(inclusive).build();
        // Safe to retry: a purge that went through finds nothing the second time.
        PurgeUpToResponse purged = call(() -> stub().purgeUpTo(request), true);
        return purged.getFound() ? Optional.of(purged.getPurgedPackets()) : Optional.empty();
    }

    @Override
    public Optional<Long> purgeToSyncPoint(BufferId id, PacketId packetId) {
        PurgeUpToRequest request = purgeRequest(id, packetId).setInclusive(true)
                .setAwaitArrival(true).build();
        // Safe to retry: a replay finds the point held, let go or awaited.
        PurgeUpToResponse purged = call(() -> stub().purgeUpTo(request), true);
        return purged.getFound() || purged.getAwaiting()
                ? Optional.of(purged.getPurgedPackets()) : Optional.empty();
    }

    private PurgeUpToRequest.Builder purgeRequest(BufferId id, PacketId packetId) {
        return PurgeUpToRequest.newBuilder().setAppId(appId).setBufferId(id.id())
                .setPacketId(org.flowbuf.proto.buffer.v1.PacketId.newBuilder()
                                     .setIpv4Id(packetId.ipv4Id())
                                     .setL4Checksum(packetId.l4Checksum()));
    }

    @Override
    public TriggerReply armTrigger(BufferId trigger, Map<VportId, VportMode> modes,
                                   Optional<BufferId> purgeToReport) {
        ArmTriggerRequest.Builder request = ArmTriggerRequest.newBuilder().setAppId(appId)
                .setBufferId(trigger.id());
        modes.forEach((vport, mode) -> request.addSetVportModes(
                SetVportModeRequest.newBuilder().setVportId(vport.id())
                        .setMode(ProtoConverter.toProto(mode))));
        purgeToReport.ifPresent(buffer -> request.setPurgeToReport(buffer.id()));
        // Not retried: a disarm replayed after an unknown outcome would find
        // nothing armed and report a fire that never happened.
        ArmTriggerResponse reply = call(() -> stub().armTrigger(request.build()), false);
        return new TriggerReply(reply.getWasArmed(), reply.hasLastFire()
                ? Optional.of(ProtoConverter.fromProto(reply.getLastFire())) : Optional.empty());
    }

    @Override
    public void checkReachable() {
        // A connected channel is the agent's own word that it is there (its
        // process closing the connection is what takes the channel out of
        // READY); anything else is asked.
        if (channel.getState(false) == ConnectivityState.READY) {
            return;
        }
        try {
            call(() -> stub().getCapabilities(GetCapabilitiesRequest.newBuilder()
                                                      .setAppId(appId).build()), true);
        } catch (FlowBufException e) {
            if (e.getCause() instanceof StatusRuntimeException && StatusMapping.unreachable(
                    ((StatusRuntimeException) e.getCause()).getStatus())) {
                throw e;
            }
            // Any answer, a refusal too, says that the agent is there.
        }
    }

    @Override
    public void reconnectNow() {
        channel.resetConnectBackoff();
    }

    private BufferStats queryStats(BufferId id) {
        return call(() -> stub().queryBuffer(QueryBufferRequest.newBuilder().setAppId(appId)
                                                     .setBufferId(id.id()).build())
                .getStats(), true);
    }

    @Override
    public void close() {
        if (ownsChannel) {
            channel.shutdown();
        }
    }

    private void applyOne(Operation op, BufferAgentGrpc.BufferAgentBlockingStub stub) {
        switch (op.getOpCase()) {
            case CREATE_BUFFER:
                stub.createBuffer(op.getCreateBuffer().toBuilder().setAppId(appId).build());
                break;
            case REMOVE_BUFFER:
                stub.removeBuffer(op.getRemoveBuffer().toBuilder().setAppId(appId).build());
                break;
            case CREATE_VPORT:
                stub.createVport(op.getCreateVport().toBuilder().setAppId(appId).build());
                break;
            case REMOVE_VPORT:
                stub.removeVport(op.getRemoveVport().toBuilder().setAppId(appId).build());
                break;
            case SET_VPORT_MODE:
                stub.setVportMode(op.getSetVportMode().toBuilder().setAppId(appId).build());
                break;
            case BIND:
                stub.bind(op.getBind().toBuilder().setAppId(appId).build());
                break;
            case UNBIND:
                stub.unbind(op.getUnbind().toBuilder().setAppId(appId).build());
                break;
            default:
                throw FlowBufException.invalid("empty southbound operation");
        }
    }

    private BufferAgentGrpc.BufferAgentBlockingStub stub() {
        return stub(deadline);
    }

    private BufferAgentGrpc.BufferAgentBlockingStub stub(Duration callDeadline) {
        return BufferAgentGrpc.newBlockingStub(channel)
                .withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T> T call(Supplier<T> rpc, boolean idempotent) {
        int attemptsLeft = idempotent ? ATTEMPTS : 1;
        while (true) {
            try {
                return rpc.get();
            } catch (StatusRuntimeException e) {
                attemptsLeft--;
                if (attemptsLeft == 0 || !StatusMapping.retryable(e)) {
                    throw StatusMapping.toException(agent, e);
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, "interrupted", e);
        }
    }
}
