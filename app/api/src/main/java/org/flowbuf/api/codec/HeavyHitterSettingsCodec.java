/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of {@link HeavyHitterSettings}: {"enabled", "rateBps",
 * "packetBytes", "idleMs", "minObserveMs"}; a field left out takes its
 * default. The encoding adds what the switch takes ("thresholdEighthsUs",
 * "idleUs", "minObserveUs", "minWindowBytes") and the mean gap ("meanGapUs").
 */
public final class HeavyHitterSettingsCodec extends JsonCodec<HeavyHitterSettings> {

    static final String ENABLED = "enabled";
    static final String RATE_BPS = "rateBps";
    static final String PACKET_BYTES = "packetBytes";
    static final String IDLE_MS = "idleMs";
    static final String MIN_OBSERVE_MS = "minObserveMs";

    @Override
    public ObjectNode encode(HeavyHitterSettings s, CodecContext context) {
        return context.mapper().createObjectNode().put(ENABLED, s.enabled())
                .put(RATE_BPS, s.rateBps()).put(PACKET_BYTES, s.packetBytes())
                .put(IDLE_MS, s.idleMs()).put("meanGapUs", s.meanGapUs())
                .put("thresholdEighthsUs", s.thresholdEighthsUs()).put("idleUs", s.idleUs())
                .put(MIN_OBSERVE_MS, s.minObserveMs()).put("minObserveUs", s.minObserveUs())
                .put("minWindowBytes", s.minWindowBytes());
    }

    @Override
    public HeavyHitterSettings decode(ObjectNode json, CodecContext context) {
        return parse(json);
    }

    /**
     * The settings of a JSON object (also the netcfg section's).
     *
     * @param json object
     * @return checked settings
     * @throws org.flowbuf.api.FlowBufException INVALID naming the field
     */
    public static HeavyHitterSettings parse(ObjectNode json) {
        UpfJson.onlyFields(json, "heavy-hitter settings",
                           List.of(ENABLED, RATE_BPS, PACKET_BYTES, IDLE_MS, MIN_OBSERVE_MS));
        HeavyHitterSettings d = HeavyHitterSettings.defaults();
        return HeavyHitterSettings.of(
                JsonFields.flag(json, ENABLED),
                JsonFields.optionalNumber(json, RATE_BPS).orElse(d.rateBps()),
                JsonFields.optionalNumber(json, PACKET_BYTES).orElse((long) d.packetBytes()),
                JsonFields.optionalNumber(json, IDLE_MS).orElse(d.idleMs()),
                JsonFields.optionalNumber(json, MIN_OBSERVE_MS).orElse(d.minObserveMs()));
    }
}
