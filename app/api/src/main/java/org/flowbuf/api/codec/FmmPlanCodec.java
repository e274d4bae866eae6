/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * JSON of an FMM plan: {"downlink": filter, "anchorIn": "device:sa/1",
 * "cells": [{"anchor": "device:sa/2", "in": "device:s1/1", "ue":
 * "device:s1/2"}, ...], "serving": "device:s1", "windowPackets": 4096
 * (optional), "attachSignal": filter (optional), "ueReports": false (optional;
 * needs attachSignal)}.
 */
public final class FmmPlanCodec extends JsonCodec<FmmPlan> {

    /** Most cells a plan may name. */
    static final int MAX_CELLS = 64;

    @Override
    public ObjectNode encode(FmmPlan plan, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode();
        json.set("downlink", context.codec(FlowFilter.class).encode(plan.downlink(), context));
        json.put("anchorIn", plan.anchorIn().toString());
        ArrayNode cells = json.putArray("cells");
        for (FmmPlan.Cell cell : plan.cells()) {
            cells.addObject().put("anchor", cell.anchorPort().toString())
                    .put("in", cell.in().toString()).put("ue", cell.ue().toString());
        }
        json.put("serving", plan.serving().toString());
        json.put("windowPackets", plan.windowPackets());
        plan.attachSignal().ifPresent(signal -> json.set(
                "attachSignal", context.codec(FlowFilter.class).encode(signal, context)));
        json.put("ueReports", plan.ueReports());
        return json;
    }

    @Override
    public FmmPlan decode(ObjectNode json, CodecContext context) {
        FlowFilter downlink = context.codec(FlowFilter.class).decode(
                JsonFields.object(json, "downlink"), context);
        long window = JsonFields.optionalNumber(json, "windowPackets")
                .orElse((long) FmmPlan.DEFAULT_WINDOW_PACKETS);
        if (window > FmmPlan.MAX_WINDOW_PACKETS) {
            throw FlowBufException.invalid("windowPackets must be 1 to %d, got %d",
                                           FmmPlan.MAX_WINDOW_PACKETS, window);
        }
        DeviceId serving = JsonFields.parse("serving", JsonFields.text(json, "serving"),
                                            DeviceId::deviceId);
        Optional<FlowFilter> attachSignal = json.has("attachSignal")
                ? Optional.of(context.codec(FlowFilter.class).decode(
                        JsonFields.object(json, "attachSignal"), context))
                : Optional.empty();
        return new FmmPlan(downlink, JsonFields.connectPoint(json, "plan", "anchorIn"),
                           cells(json), serving, (int) window, attachSignal,
                           JsonFields.flag(json, "ueReports"));
    }

    private static List<FmmPlan.Cell> cells(ObjectNode json) {
        JsonNode array = json.get("cells");
        if (array == null || !array.isArray()) {
            throw FlowBufException.invalid("\"cells\" is required: an array of {\"anchor\", "
                                                   + "\"in\", \"ue\"}");
        }
        if (array.size() > MAX_CELLS) {
            throw FlowBufException.invalid("at most %d cells, got %d", MAX_CELLS, array.size());
        }
        List<FmmPlan.Cell> cells = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!array.get(i).isObject()) {
                throw FlowBufException.invalid("cells[%d] is not an object", i);
            }
            ObjectNode cell = (ObjectNode) array.get(i);
            String where = "cells[" + i + "]";
            cells.add(new FmmPlan.Cell(JsonFields.connectPoint(cell, where, "anchor"),
                                       JsonFields.connectPoint(cell, where, "in"),
                                       JsonFields.connectPoint(cell, where, "ue")));
        }
        return cells;
    }
}
