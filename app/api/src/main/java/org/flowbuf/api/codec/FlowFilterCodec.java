/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.onlab.packet.IpPrefix;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.PortNumber;

/**
 * JSON of a flow filter: an IPv4 5-tuple where every field is optional.
 */
public final class FlowFilterCodec extends JsonCodec<FlowFilter> {

    static final String IN_PORT = "inPort";
    static final String IPV4_SRC = "ipv4Src";
    static final String IPV4_DST = "ipv4Dst";
    static final String IP_PROTO = "ipProto";
    static final String L4_SRC_PORT = "l4SrcPort";
    static final String L4_DST_PORT = "l4DstPort";

    @Override
    public ObjectNode encode(FlowFilter filter, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode();
        filter.inPort().ifPresent(p -> json.put(IN_PORT, p.toLong()));
        filter.ipv4Src().ifPresent(p -> json.put(IPV4_SRC, p.toString()));
        filter.ipv4Dst().ifPresent(p -> json.put(IPV4_DST, p.toString()));
        filter.ipProto().ifPresent(p -> json.put(IP_PROTO, p));
        filter.l4SrcPort().ifPresent(p -> json.put(L4_SRC_PORT, p));
        filter.l4DstPort().ifPresent(p -> json.put(L4_DST_PORT, p));
        return json;
    }

    @Override
    public FlowFilter decode(ObjectNode json, CodecContext context) {
        FlowFilter.Builder b = FlowFilter.builder();
        try {
            JsonFields.optionalNumber(json, IN_PORT).ifPresent(p -> b.inPort(PortNumber.portNumber(p)));
            JsonFields.optionalText(json, IPV4_SRC)
                    .ifPresent(p -> b.ipv4Src(JsonFields.parse(IPV4_SRC, p, IpPrefix::valueOf)));
            JsonFields.optionalText(json, IPV4_DST)
                    .ifPresent(p -> b.ipv4Dst(JsonFields.parse(IPV4_DST, p, IpPrefix::valueOf)));
            JsonFields.optionalNumber(json, IP_PROTO).ifPresent(p -> b.ipProto(p.intValue()));
            JsonFields.optionalNumber(json, L4_SRC_PORT).ifPresent(p -> b.l4SrcPort(p.intValue()));
            JsonFields.optionalNumber(json, L4_DST_PORT).ifPresent(p -> b.l4DstPort(p.intValue()));
            return b.build();
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("filter: %s", e.getMessage());
        }
    }
}
