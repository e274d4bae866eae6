/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.HandoffPlan;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.ConnectPoint;

import java.util.Locale;

/**
 * JSON of an LMM handoff plan: {"downlink": filter, "anchor": {"in",
 * "toSource", "toTarget"}, "source": {"in", "x2"}, "target": {"in", "x2",
 * "ue"}, "buffering": "flowbuf" (default), "none" (the no-buffering
 * baseline) or "controller" (the controller-buffering baseline)}, ports as
 * "device:id/port".
 */
public final class HandoffPlanCodec extends JsonCodec<HandoffPlan> {

    @Override
    public ObjectNode encode(HandoffPlan plan, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode();
        json.set("downlink", context.codec(FlowFilter.class).encode(plan.downlink(), context));
        ObjectNode anchor = json.putObject("anchor");
        anchor.put("in", plan.anchorIn().toString());
        anchor.put("toSource", plan.anchorToSource().toString());
        anchor.put("toTarget", plan.anchorToTarget().toString());
        ObjectNode source = json.putObject("source");
        source.put("in", plan.sourceIn().toString());
        source.put("x2", plan.sourceX2().toString());
        ObjectNode target = json.putObject("target");
        target.put("in", plan.targetIn().toString());
        target.put("x2", plan.targetX2().toString());
        target.put("ue", plan.targetUe().toString());
        json.put("buffering", plan.buffering().name().toLowerCase(Locale.ROOT));
        return json;
    }

    @Override
    public HandoffPlan decode(ObjectNode json, CodecContext context) {
        FlowFilter downlink = context.codec(FlowFilter.class).decode(
                JsonFields.object(json, "downlink"), context);
        ObjectNode anchor = JsonFields.object(json, "anchor");
        ObjectNode source = JsonFields.object(json, "source");
        ObjectNode target = JsonFields.object(json, "target");
        HandoffPlan.Buffering buffering = buffering(json);
        return HandoffPlan.builder().downlink(downlink).buffering(buffering)
                .anchor(port(anchor, "anchor", "in"), port(anchor, "anchor", "toSource"),
                        port(anchor, "anchor", "toTarget"))
                .source(port(source, "source", "in"), port(source, "source", "x2"))
                .target(port(target, "target", "in"), port(target, "target", "x2"),
                        port(target, "target", "ue"))
                .build();
    }

    private static HandoffPlan.Buffering buffering(ObjectNode json) {
        String text = JsonFields.optionalText(json, "buffering").orElse("flowbuf");
        for (HandoffPlan.Buffering mode : HandoffPlan.Buffering.values()) {
            if (mode.name().toLowerCase(Locale.ROOT).equals(text)) {
                return mode;
            }
        }
        throw FlowBufException.invalid("\"buffering\" is \"flowbuf\", \"none\" or "
                                               + "\"controller\", not \"%s\"", text);
    }

    private static ConnectPoint port(ObjectNode json, String role, String field) {
        return JsonFields.connectPoint(json, role, field);
    }
}
