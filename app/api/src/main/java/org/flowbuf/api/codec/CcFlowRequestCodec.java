/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CongestionMode;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of a latency-critical flow registration: {"srcHost", "dstHost",
 * "filter", "budgetUs", "m", "x", "mode", "orderedSwitchover",
 * "probeIntervalMs"}. Unknown
 * fields are refused.
 */
public final class CcFlowRequestCodec extends JsonCodec<CcFlowRequest> {

    static final List<String> FIELDS = List.of("srcHost", "dstHost", "filter", "budgetUs", "m",
                                               "x", "mode", "orderedSwitchover",
                                               "probeIntervalMs");

    @Override
    public CcFlowRequest decode(ObjectNode json, CodecContext context) {
        if (json == null) {
            throw FlowBufException.invalid("a latency-critical flow needs a JSON object");
        }
        UpfJson.onlyFields(json, "latency-critical flow", FIELDS);
        FlowFilter filter = context.codec(FlowFilter.class).decode(
                JsonFields.optionalObject(json, "filter").orElseThrow(
                        () -> FlowBufException.invalid("\"filter\" is required")), context);
        return CcFlowRequest.builder().filter(filter)
                .hosts(JsonFields.text(json, "srcHost"), JsonFields.text(json, "dstHost"))
                .budgetUs(JsonFields.number(json, "budgetUs"))
                .m(JsonFields.optionalNumber(json, "m").orElse(1L))
                .factor(factor(json))
                .mode(JsonFields.optionalEnum(json, "mode", CongestionMode.class)
                              .orElse(CongestionMode.DATAPLANE))
                .orderedSwitchover(JsonFields.flag(json, "orderedSwitchover"))
                .probeIntervalMs(JsonFields.optionalNumber(json, "probeIntervalMs").orElse(null))
                .build();
    }

    private static Double factor(ObjectNode json) {
        JsonNode x = json.get("x");
        if (x == null || x.isNull()) {
            return null;
        }
        if (!x.isNumber()) {
            throw FlowBufException.invalid("\"x\" must be a number");
        }
        return x.asDouble();
    }
}
