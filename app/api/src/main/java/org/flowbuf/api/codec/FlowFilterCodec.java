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

import java.util.List;
import java.util.Set;

/**
 * JSON of a flow filter: an IPv4 5-tuple where every field is optional, but
 * a filter without any must say {@code "all": true}: {@code {}} (or a filter
 * whose only fields are misspelt) would otherwise match every IPv4 packet
 * without the caller having asked for it. Unknown fields are refused.
 */
public final class FlowFilterCodec extends JsonCodec<FlowFilter> {

    static final String IN_PORT = "inPort";
    static final String IPV4_SRC = "ipv4Src";
    static final String IPV4_DST = "ipv4Dst";
    static final String IP_PROTO = "ipProto";
    static final String L4_SRC_PORT = "l4SrcPort";
    static final String L4_DST_PORT = "l4DstPort";
    static final String ALL = "all";
    private static final int MAX_IP_PROTO = 255;
    private static final int MAX_L4_PORT = 65535;
    private static final long MAX_PHYSICAL_PORT = 0xFFFFFFFFL;
    private static final List<String> FIELDS_IN_ORDER =
            List.of(IN_PORT, IPV4_SRC, IPV4_DST, IP_PROTO, L4_SRC_PORT, L4_DST_PORT, ALL);
    private static final Set<String> FIELDS =
            Set.of(IN_PORT, IPV4_SRC, IPV4_DST, IP_PROTO, L4_SRC_PORT, L4_DST_PORT, ALL);

    @Override
    public ObjectNode encode(FlowFilter filter, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode();
        filter.inPort().ifPresent(p -> json.put(IN_PORT, p.toLong()));
        filter.ipv4Src().ifPresent(p -> json.put(IPV4_SRC, p.toString()));
        filter.ipv4Dst().ifPresent(p -> json.put(IPV4_DST, p.toString()));
        filter.ipProto().ifPresent(p -> json.put(IP_PROTO, p));
        filter.l4SrcPort().ifPresent(p -> json.put(L4_SRC_PORT, p));
        filter.l4DstPort().ifPresent(p -> json.put(L4_DST_PORT, p));
        if (filter.matchesEveryIpv4Packet()) {
            json.put(ALL, true);
        }
        return json;
    }

    @Override
    public FlowFilter decode(ObjectNode json, CodecContext context) {
        json.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                throw FlowBufException.invalid("filter: unknown field \"%s\" (a filter has %s)",
                                               name, String.join(", ", FIELDS_IN_ORDER));
            }
        });
        FlowFilter filter = fields(json);
        boolean all = JsonFields.flag(json, ALL);
        if (filter.matchesEveryIpv4Packet() && !all) {
            throw FlowBufException.invalid(
                    "filter %s names no IPv4 field, so it would match every IPv4 packet: name "
                            + "at least one of ipv4Src, ipv4Dst, ipProto, l4SrcPort, l4DstPort, "
                            + "or say \"all\": true", json);
        }
        if (!filter.matchesEveryIpv4Packet() && all) {
            throw FlowBufException.invalid("filter %s: \"all\" is only for a filter that names "
                                                   + "no IPv4 field", json);
        }
        return filter;
    }

    // ONOS's physical ports are 1 to 2^32 - 1 (PortNumber.isLogical): a filter
    // naming another would be stored and then encoded as no port at all.
    private static PortNumber physicalPort(long value) {
        if (value < 1 || value > MAX_PHYSICAL_PORT) {
            throw FlowBufException.invalid("%s must be a physical port number between 1 and %d, "
                                                   + "got %d", IN_PORT, MAX_PHYSICAL_PORT, value);
        }
        return PortNumber.portNumber(value);
    }

    // The value as an int, refused beyond max before it could wrap (2^32 + 17 is not UDP).
    private static int upTo(String field, long value, int max) {
        if (value > max) {
            throw FlowBufException.invalid("%s must be between 0 and %d, got %d", field, max,
                                           value);
        }
        return (int) value;
    }

    private static FlowFilter fields(ObjectNode json) {
        FlowFilter.Builder b = FlowFilter.builder();
        try {
            JsonFields.optionalNumber(json, IN_PORT).ifPresent(p -> b.inPort(physicalPort(p)));
            JsonFields.optionalText(json, IPV4_SRC)
                    .ifPresent(p -> b.ipv4Src(JsonFields.parse(IPV4_SRC, p, IpPrefix::valueOf)));
            JsonFields.optionalText(json, IPV4_DST)
                    .ifPresent(p -> b.ipv4Dst(JsonFields.parse(IPV4_DST, p, IpPrefix::valueOf)));
            JsonFields.optionalNumber(json, IP_PROTO)
                    .ifPresent(p -> b.ipProto(upTo(IP_PROTO, p, MAX_IP_PROTO)));
            JsonFields.optionalNumber(json, L4_SRC_PORT)
                    .ifPresent(p -> b.l4SrcPort(upTo(L4_SRC_PORT, p, MAX_L4_PORT)));
            JsonFields.optionalNumber(json, L4_DST_PORT)
                    .ifPresent(p -> b.l4DstPort(upTo(L4_DST_PORT, p, MAX_L4_PORT)));
            return b.build();
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("filter: %s", e.getMessage());
        }
    }
}
