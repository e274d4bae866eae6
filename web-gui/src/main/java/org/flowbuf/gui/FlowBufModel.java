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
import org.flowbuf.api.FlowBufIntentService;
import org.onosproject.codec.CodecContext;
import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The model the overlay and the embedded page render: buffers per device
 * and intents, in the REST API's JSON.
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
                           Collection<FlowBufIntent> intents) {
        ObjectNode root = context.mapper().createObjectNode();
        ArrayNode b = root.putArray("buffers");
        buffers.values().forEach(list -> list.forEach(
                x -> b.add(context.codec(Buffer.class).encode(x, context))));
        ArrayNode i = root.putArray("intents");
        intents.forEach(x -> i.add(context.codec(FlowBufIntent.class).encode(x, context)));
        return root;
    }

    static ObjectNode json(CodecContext context, BufferService buffers,
                           FlowBufIntentService intents) {
        return json(context, buffers(buffers), intents.getIntents());
    }
}
