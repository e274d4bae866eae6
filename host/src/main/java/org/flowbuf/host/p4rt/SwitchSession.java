/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import org.flowbuf.app.intent.SteeringRule;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRule;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Update;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * The host's session with one switch: primary over P4Runtime, the FlowBuf
 * pipeline pushed, and PI flow rules written as table entries.
 */
public final class SwitchSession implements AutoCloseable {

    /** The packet_in metadata that carries the port a punted packet came in on. */
    static final String INGRESS_PORT = "ingress_port";

    private final DeviceId deviceId;
    private final ManagedChannel channel;
    private final P4RuntimeClient client;
    private final P4InfoIndex p4info;
    private final PiEntryEncoder encoder;
    private final WriteBatcher writes;

    /**
     * Creates a session; {@link #start} connects.
     *
     * @param deviceId ONOS device id
     * @param channel  channel to the switch's P4Runtime server
     * @param client   P4Runtime client on that channel
     * @param p4info   the pipeline's p4info
     */
    public SwitchSession(DeviceId deviceId, ManagedChannel channel, P4RuntimeClient client,
                         P4InfoIndex p4info) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.channel = Objects.requireNonNull(channel);
        this.client = Objects.requireNonNull(client);
        this.p4info = Objects.requireNonNull(p4info);
        this.encoder = new PiEntryEncoder(p4info);
        this.writes = new WriteBatcher(client::write, deviceId.toString());
    }

    /**
     * Becomes primary and pushes the pipeline unless the switch already runs
     * it: a restarted controller must not reset the tables that steer
     * paused flows into their buffers.
     *
     * @param deviceConfig target config (the bmv2 JSON that Stratum-bmv2 and
     *                     pbswitch run); empty for a target that takes none
     * @param timeout      how long to wait for the arbitration answer
     * @return true when the pipeline was pushed (tables empty), false when
     *         the running one was kept
     */
    public boolean start(ByteString deviceConfig, Duration timeout) {
        client.becomePrimary(timeout);
        long cookie = cookie(deviceConfig);
        if (client.pipelineCookie().equals(Optional.of(cookie))) {
            return false;
        }
        client.setPipeline(p4info.p4info(), deviceConfig, cookie);
        return true;
    }

    /**
     * Inserts flow rules, keeping those the switch already has.
     *
     * @param rules PI flow rules
     */
    public void insertMissing(List<FlowRule> rules) {
        try {
            insert(rules);
        } catch (P4RuntimeWriteException e) {
            boolean onlyExisting = !e.updateErrors().isEmpty() && e.updateErrors().stream()
                    .allMatch(m -> m.startsWith(Status.Code.ALREADY_EXISTS.name()));
            if (!onlyExisting) {
                throw e;
            }
        }
    }

    private long cookie(ByteString deviceConfig) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(p4info.p4info().toByteArray());
            sha.update(deviceConfig.toByteArray());
            return ByteBuffer.wrap(sha.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * The encoder of this switch's pipeline.
     *
     * @return encoder
     */
    public PiEntryEncoder encoder() {
        return encoder;
    }

    /**
     * Writes flow rules as inserts, in one Write with those that other
     * callers write at the same time ({@link WriteBatcher}).
     *
     * @param rules PI flow rules
     * @throws P4RuntimeWriteException when the switch refused one of them
     */
    public void insert(List<FlowRule> rules) {
        writes.write(updates(Update.Type.INSERT, rules));
    }

    /**
     * Sets a table's default action: the rule's action, on its table,
     * with no match (a keyless table's only entry).
     *
     * @param rule a PI flow rule with no match
     */
    public void setDefaultAction(FlowRule rule) {
        client.modify(List.of(encoder.encode(rule).toBuilder().clearMatch().clearPriority()
                                      .setIsDefaultAction(true).build()));
    }

    /**
     * Changes the actions of installed flow rules (batched as inserts are).
     *
     * @param rules PI flow rules
     * @throws P4RuntimeWriteException when the switch refused one of them
     */
    public void modify(List<FlowRule> rules) {
        writes.write(updates(Update.Type.MODIFY, rules));
    }

    /**
     * Hands every packet-in to a receiver with its ingress port, read from
     * the packet_in header's ingress_port metadata (id from the p4info).
     *
     * @param receiver called with the ingress port and the frame
     */
    public void onPacketIn(BiConsumer<Long, byte[]> receiver) {
        int portId = p4info.packetMetadata("packet_in").getMetadataList().stream()
                .filter(m -> m.getName().equals(INGRESS_PORT)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "the p4info's packet_in has no " + INGRESS_PORT)).getId();
        client.onPacketIn(packet -> packet.getMetadataList().stream()
                .filter(m -> m.getMetadataId() == portId).findFirst()
                .ifPresent(m -> receiver.accept(new BigInteger(1, m.getValue().toByteArray())
                                                        .longValue(),
                                                packet.getPayload().toByteArray())));
    }

    /**
     * The steering rules the switch holds (to a port; multicast ones are
     * left out), read back from its flow_steering table.
     *
     * @return rules
     */
    public List<SteeringRule> steeringRules() {
        SteeringEntryDecoder decoder = new SteeringEntryDecoder(p4info);
        return client.readTable(decoder.tableId()).stream().map(decoder::decode)
                .flatMap(Optional::stream).collect(Collectors.toList());
    }

    /**
     * Sets what runs when the session loses the switch (its P4Runtime stream
     * closed: the switch restarted or dropped this controller); {@link #start}
     * again takes it back.
     *
     * @param listener called on a gRPC thread, once per lost stream
     */
    public void onDisconnect(Runnable listener) {
        client.onStreamClosed(listener);
    }

    /**
     * Sends a frame through the pipeline's packet_out header.
     *
     * @param frame    Ethernet frame
     * @param metadata packet_out metadata by name (e.g. egress_port)
     */
    public void packetOut(byte[] frame, Map<String, Long> metadata) {
        client.packetOut(frame, metadata, p4info);
    }

    /**
     * Deletes flow rules (batched as inserts are).
     *
     * @param rules PI flow rules
     * @throws P4RuntimeWriteException when the switch refused one of them
     */
    public void delete(List<FlowRule> rules) {
        writes.write(updates(Update.Type.DELETE, rules));
    }

    /**
     * The device id.
     *
     * @return device id
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The P4Runtime client, for packet I/O.
     *
     * @return client
     */
    public P4RuntimeClient client() {
        return client;
    }

    private List<Update> updates(Update.Type type, List<FlowRule> rules) {
        return rules.stream().map(r -> Update.newBuilder().setType(type).setEntity(
                Entity.newBuilder().setTableEntry(encoder.encode(r))).build())
                .collect(Collectors.toList());
    }

    /**
     * Warms the call path of this session's Writes up (see
     * {@link P4RuntimeClient#warmUp}).
     *
     * @param calls how many round trips
     * @return how many were sent
     */
    public int warmUp(int calls) {
        return client.warmUp(calls);
    }

    @Override
    public void close() {
        writes.close();
        client.close();
        channel.shutdown();
    }
}
