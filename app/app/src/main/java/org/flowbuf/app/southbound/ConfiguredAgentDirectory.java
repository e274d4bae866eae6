/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.onosproject.net.DeviceId;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Agents as the network config describes them: one client (one channel) per
 * device, opened on first use and closed when the device's config changes,
 * so a moved or restarted agent is reached again on the next call. Only the
 * instance that drives a device (its ONOS master) may talk to its agent.
 */
public final class ConfiguredAgentDirectory implements AgentDirectory {

    private final String appId;
    private final Function<DeviceId, Optional<FlowBufDeviceConfig>> configs;
    private final Supplier<Set<DeviceId>> configuredDevices;
    private final ChannelFactory channels;
    private final Predicate<DeviceId> drivesDevice;
    private final Duration deadline;
    private final Map<DeviceId, Connection> connections = new ConcurrentHashMap<>();
    private final Map<DeviceId, Slots> slots = new ConcurrentHashMap<>();
    private final Map<DeviceId, Judged> judged = new ConcurrentHashMap<>();

    /**
     * A device's config judged once per content of its JSON. ONOS's
     * getConfig makes a new config object per call, so the config's own
     * cache judges again on each lookup; several lookups a request each
     * validated every vport entry.
     */
    private static final class Judged {
        private final JsonNode json;
        private final Optional<String> error;

        Judged(JsonNode json, Optional<String> error) {
            this.json = json;
            this.error = error;
        }
    }

    /**
     * A device's slots, made from its config's JSON once: a tagged vport
     * entry is thousands of slots, and every pause asks for them.
     */
    private static final class Slots {
        private final JsonNode json;
        private final List<VportSlot> list;

        Slots(JsonNode json, List<VportSlot> list) {
            this.json = json;
            this.list = list;
        }
    }

    /** A client and the channel under it. */
    private static final class Connection {
        private final ManagedChannel channel;
        private final BufferAgentClient client;

        Connection(ManagedChannel channel, BufferAgentClient client) {
            this.channel = channel;
            this.client = client;
        }
    }

    /**
     * Creates the directory.
     *
     * @param appId        application id sent to agents
     * @param configs      the FlowBuf config of a device, if any
     * @param devices      the devices that have a FlowBuf config
     * @param channels     opens the channel to an agent
     * @param drivesDevice whether this instance drives a device's agent
     * @param deadline     deadline of each agent call
     */
    public ConfiguredAgentDirectory(String appId,
                                    Function<DeviceId, Optional<FlowBufDeviceConfig>> configs,
                                    Supplier<Set<DeviceId>> devices,
                                    ChannelFactory channels, Predicate<DeviceId> drivesDevice,
                                    Duration deadline) {
        this.appId = Objects.requireNonNull(appId);
        this.configs = Objects.requireNonNull(configs);
        this.configuredDevices = Objects.requireNonNull(devices);
        this.channels = Objects.requireNonNull(channels);
        this.drivesDevice = Objects.requireNonNull(drivesDevice);
        this.deadline = Objects.requireNonNull(deadline);
    }

    @Override
    public BufferAgentClient agent(DeviceId deviceId) {
        // A device without a FlowBuf config is not found (404) on any instance;
        // mastership only decides who drives a configured device's agent.
        FlowBufDeviceConfig config = validConfig(deviceId);
        if (!drivesDevice.test(deviceId)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "this instance is not the master of " + deviceId
                                               + "; only the master drives its agent");
        }
        return connections.computeIfAbsent(deviceId, id -> connect(id, config)).client;
    }

    @Override
    public List<VportSlot> vportSlots(DeviceId deviceId) {
        Optional<FlowBufDeviceConfig> config = configs.apply(deviceId)
                .filter(c -> errorOf(deviceId, c).isEmpty());
        if (config.isEmpty()) {
            return List.of();
        }
        JsonNode json = config.get().node();
        Slots cached = slots.get(deviceId);
        if (cached == null || !cached.json.equals(json)) {
            cached = new Slots(json.deepCopy(), config.get().vportSlots());
            slots.put(deviceId, cached);
        }
        return cached.list;
    }

    @Override
    public int readyBuffers(DeviceId deviceId) {
        return configs.apply(deviceId).filter(c -> errorOf(deviceId, c).isEmpty())
                .map(FlowBufDeviceConfig::readyBuffers).orElse(0);
    }

    @Override
    public Set<DeviceId> devices() {
        return Set.copyOf(configuredDevices.get());
    }

    /**
     * Closes the connection to a device's agent; the next call reconnects
     * with the config as it is then.
     *
     * @param deviceId device
     */
    public void forget(DeviceId deviceId) {
        Connection connection = connections.remove(deviceId);
        if (connection != null) {
            channels.close(deviceId, connection.channel);
        }
    }

    /**
     * Closes every connection.
     */
    public void closeAll() {
        connections.keySet().forEach(this::forget);
    }

    private FlowBufDeviceConfig validConfig(DeviceId deviceId) {
        FlowBufDeviceConfig config = configs.apply(deviceId).orElseThrow(
                () -> FlowBufException.notFound("device %s has no \"%s\" config with its agent "
                                                        + "address", deviceId,
                                                FlowBufDeviceConfig.CONFIG_KEY));
        Optional<String> error = errorOf(deviceId, config);
        if (error.isPresent()) {
            throw FlowBufException.invalid("FlowBuf config of %s: %s", deviceId, error.get());
        }
        return config;
    }

    // The config's first problem, judged again only when its JSON changed.
    private Optional<String> errorOf(DeviceId deviceId, FlowBufDeviceConfig config) {
        JsonNode json = config.node();
        Judged last = judged.get(deviceId);
        if (last != null && last.json.equals(json)) {
            return last.error;
        }
        Optional<String> error = config.validationError();
        judged.put(deviceId, new Judged(json.deepCopy(), error));
        return error;
    }

    private Connection connect(DeviceId deviceId, FlowBufDeviceConfig config) {
        ManagedChannel channel = channels.open(deviceId, config);
        return new Connection(channel, new DefaultBufferAgentClient(
                config.agentAddress() + " (" + deviceId + ")", appId, channel, false, deadline));
    }
}
