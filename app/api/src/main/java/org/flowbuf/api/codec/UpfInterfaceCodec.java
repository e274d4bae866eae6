/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfInterface;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of a UPF interface: {"deviceId", "kind": "ACCESS" | "CORE", "prefix"}.
 * An ACCESS interface is one N3 address, a /32.
 */
public final class UpfInterfaceCodec extends JsonCodec<UpfInterface> {

    static final String DEVICE_ID = "deviceId";
    static final String KIND = "kind";
    static final String PREFIX = "prefix";
    private static final List<String> FIELDS = List.of(DEVICE_ID, KIND, PREFIX);

    @Override
    public ObjectNode encode(UpfInterface i, CodecContext context) {
        return context.mapper().createObjectNode()
                .put(DEVICE_ID, i.deviceId().toString())
                .put(KIND, i.kind().name())
                .put(PREFIX, i.prefix().toString());
    }

    @Override
    public UpfInterface decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "interface", FIELDS);
        UpfInterface.Kind kind = JsonFields.optionalEnum(json, KIND, UpfInterface.Kind.class)
                .orElseThrow(() -> FlowBufException.invalid("\"%s\" is required (ACCESS or CORE)",
                                                            KIND));
        Ip4Prefix prefix = UpfJson.prefix(PREFIX, JsonFields.text(json, PREFIX));
        if (kind == UpfInterface.Kind.ACCESS && prefix.prefixLength() != Ip4Prefix.MAX_MASK_LENGTH) {
            throw FlowBufException.invalid("an ACCESS interface is one N3 address (a /32), not %s",
                                           prefix);
        }
        if (prefix.prefixLength() == 0) {
            throw FlowBufException.invalid("\"%s\": 0.0.0.0/0 would take every packet", PREFIX);
        }
        return new UpfInterface(UpfJson.deviceId(json, DEVICE_ID), kind, prefix);
    }
}
