/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.UpfDirection;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of a UPF firewall rule; decoding refuses unknown fields and ignores
 * "id" (the service assigns it).
 */
public final class FirewallRuleCodec extends JsonCodec<FirewallRule> {

    static final String ID = "id";
    static final String DEVICE_ID = "deviceId";
    static final String DIRECTION = "direction";
    static final String FILTER = "filter";
    static final String ACTION = "action";
    static final String PRIORITY = "priority";
    private static final List<String> FIELDS =
            List.of(ID, DEVICE_ID, DIRECTION, FILTER, ACTION, PRIORITY);

    @Override
    public ObjectNode encode(FirewallRule r, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put(ID, r.id())
                .put(DEVICE_ID, r.deviceId().toString())
                .put(DIRECTION, r.direction().name())
                .put(ACTION, r.action().name())
                .put(PRIORITY, r.priority());
        UpfJson.encodeFilter(json.putObject(FILTER), r.filter());
        return json;
    }

    @Override
    public FirewallRule decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "firewall rule", FIELDS);
        UpfDirection direction = JsonFields.optionalEnum(json, DIRECTION, UpfDirection.class)
                .orElse(UpfDirection.BOTH);
        FirewallRule.Action action = JsonFields.optionalEnum(json, ACTION, FirewallRule.Action.class)
                .orElseThrow(() -> FlowBufException.invalid("\"%s\" is required (ALLOW or DENY)",
                                                            ACTION));
        return new FirewallRule(0, UpfJson.deviceId(json, DEVICE_ID), direction,
                                UpfJson.decodeFilter(json, FILTER), action,
                                JsonFields.optionalNumber(json, PRIORITY).orElse(1L));
    }
}
