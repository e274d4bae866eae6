/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfQosReroute;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/** JSON of a UPF-QoS reroute (encode only: the policy makes them). */
public final class UpfQosRerouteCodec extends JsonCodec<UpfQosReroute> {

    @Override
    public ObjectNode encode(UpfQosReroute r, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put("deviceId", r.deviceId().toString())
                .put("ueAddress", r.ueAddress().toString())
                .put("port", r.port())
                .put("since", r.since().toString())
                .put("bytes", r.bytes());
        json.set("cause", new HeavyHitterCodec().encode(r.cause(), context));
        return json;
    }
}
