/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of a UPF-QoS policy (REST `upf/qos` and netcfg
 * `apps."org.flowbuf.app".upfQos`); decoding refuses unknown fields.
 */
public final class UpfQosPolicyCodec extends JsonCodec<UpfQosPolicy> {

    static final String DEVICE_ID = "deviceId";
    static final String APP_ID = "appId";
    static final String PRIORITY = "priority";
    static final String FILTER = "filter";
    static final String QFI = "qfi";
    static final String QUEUE = "queue";
    static final String HIGH_BANDWIDTH_PORT = "highBandwidthPort";
    static final String IDLE_MS = "idleMs";
    private static final List<String> FIELDS =
            List.of(DEVICE_ID, APP_ID, PRIORITY, FILTER, QFI, QUEUE, HIGH_BANDWIDTH_PORT, IDLE_MS);

    @Override
    public ObjectNode encode(UpfQosPolicy p, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put(DEVICE_ID, p.deviceId().toString())
                .put(APP_ID, p.dcClass().appId())
                .put(PRIORITY, p.dcClass().priority())
                .put(QFI, p.dcClass().qfi())
                .put(QUEUE, p.dcQueue().queue())
                .put(IDLE_MS, p.idle().toMillis());
        UpfJson.encodeFilter(json.putObject(FILTER), p.dcClass().filter());
        p.highBandwidthPort().ifPresent(port -> json.put(HIGH_BANDWIDTH_PORT, port));
        return json;
    }

    @Override
    public UpfQosPolicy decode(ObjectNode json, CodecContext context) {
        return parse(json);
    }

    /**
     * Decodes a policy (the netcfg reader has no codec context).
     *
     * @param json the policy
     * @return it
     * @throws org.flowbuf.api.FlowBufException INVALID naming the field
     */
    public static UpfQosPolicy parse(ObjectNode json) {
        UpfJson.onlyFields(json, "UPF-QoS policy", FIELDS);
        UpfApplication dcClass = new UpfApplication(
                UpfJson.deviceId(json, DEVICE_ID), JsonFields.number(json, APP_ID),
                JsonFields.optionalNumber(json, PRIORITY).orElse(1L),
                UpfJson.decodeFilter(json, FILTER), JsonFields.number(json, QFI), null);
        return new UpfQosPolicy(dcClass,
                                JsonFields.optionalNumber(json, QUEUE)
                                        .orElse((long) UpfQosPolicy.DEFAULT_QUEUE),
                                JsonFields.optionalNumber(json, HIGH_BANDWIDTH_PORT).orElse(null),
                                JsonFields.optionalNumber(json, IDLE_MS)
                                        .orElse(UpfQosPolicy.DEFAULT_IDLE_MS));
    }
}
