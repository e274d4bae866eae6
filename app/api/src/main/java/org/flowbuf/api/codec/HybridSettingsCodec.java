/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.HybridSettings;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of {@link HybridSettings}: {"fastDevice", "slowDevice", "slowPort",
 * "dnPort", "fastTableBudget"?, "demoteIdleMs"?, "windowMs"?}; an empty
 * object is off. The encoding adds "enabled".
 */
public final class HybridSettingsCodec extends JsonCodec<HybridSettings> {

    static final String FAST_DEVICE = "fastDevice";
    static final String SLOW_DEVICE = "slowDevice";
    static final String SLOW_PORT = "slowPort";
    static final String DN_PORT = "dnPort";
    static final String BUDGET = "fastTableBudget";
    static final String DEMOTE_IDLE_MS = "demoteIdleMs";
    static final String WINDOW_MS = "windowMs";

    @Override
    public ObjectNode encode(HybridSettings s, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode().put("enabled", s.enabled());
        s.fastDevice().ifPresent(d -> json.put(FAST_DEVICE, d.toString()));
        s.slowDevice().ifPresent(d -> json.put(SLOW_DEVICE, d.toString()));
        if (s.enabled()) {
            json.put(SLOW_PORT, s.slowPort().toLong()).put(DN_PORT, s.dnPort().toLong());
        }
        return json.put(BUDGET, s.fastTableBudget()).put(DEMOTE_IDLE_MS, s.demoteIdleMs())
                .put(WINDOW_MS, s.windowMs());
    }

    @Override
    public HybridSettings decode(ObjectNode json, CodecContext context) {
        return parse(json);
    }

    /**
     * The settings of a JSON object (also the netcfg section's).
     *
     * @param json object
     * @return checked settings; off for an empty object
     * @throws org.flowbuf.api.FlowBufException INVALID naming the field
     */
    public static HybridSettings parse(ObjectNode json) {
        UpfJson.onlyFields(json, "hybrid settings",
                           List.of(FAST_DEVICE, SLOW_DEVICE, SLOW_PORT, DN_PORT, BUDGET,
                                   DEMOTE_IDLE_MS, WINDOW_MS));
        if (json.isEmpty()) {
            return HybridSettings.off();
        }
        return HybridSettings.of(
                UpfJson.deviceId(json, FAST_DEVICE), UpfJson.deviceId(json, SLOW_DEVICE),
                JsonFields.number(json, SLOW_PORT), JsonFields.number(json, DN_PORT),
                JsonFields.optionalNumber(json, BUDGET).orElse((long) HybridSettings.DEFAULT_BUDGET),
                JsonFields.optionalNumber(json, DEMOTE_IDLE_MS).orElse(HybridSettings.DEFAULT_DEMOTE_MS),
                JsonFields.optionalNumber(json, WINDOW_MS).orElse(HybridSettings.DEFAULT_WINDOW_MS));
    }
}
