/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.onosproject.codec.CodecContext;
import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model the overlay and the embedded page render: buffers per device,
 * intents, the UPF's sessions per device and the latency-critical flows, in
 * the REST API's JSON.
 */
final class FlowBufModel {

    private FlowBufModel() {
    }

    static Map<DeviceId, Collection<Buffer>> buffers(BufferService service) {
        Map<DeviceId, Collection<Buffer>> byDevice = new LinkedHashMap<>();
        service.getDevices().stream().sorted(Comparator.comparing(DeviceId::toString))
                .forEach(d -> byDevice.put(d, service.getBuffers(d)));
        return byDevice;
    }

    static ObjectNode json(CodecContext context, Map<DeviceId, Collection<Buffer>> buffers,
                           Collection<FlowBufIntent> intents, List<UpfDeviceSummary> upf,
                           Collection<LatencyCriticalFlow> flows) {
        ObjectNode root = context.mapper().createObjectNode();
        ArrayNode b = root.putArray("buffers");
        buffers.values().forEach(list -> list.forEach(
                x -> b.add(context.codec(Buffer.class).encode(x, context))));
        ArrayNode i = root.putArray("intents");
        intents.forEach(x -> i.add(context.codec(FlowBufIntent.class).encode(x, context)));
        // The REST API's upf/devices list: sessions per device, not every session.
        ArrayNode u = root.putArray("upf");
        upf.forEach(x -> u.add(context.codec(UpfDeviceSummary.class).encode(x, context)));
        ArrayNode c = root.putArray("congestion");
        flows.stream().sorted(Comparator.comparingLong(LatencyCriticalFlow::id)).forEach(
                x -> c.add(context.codec(LatencyCriticalFlow.class).encode(x, context)));
        return root;
    }
}
