/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.UpfApplication;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/** JSON of a UPF application; decoding refuses unknown fields. */
public final class UpfApplicationCodec extends JsonCodec<UpfApplication> {

    static final String DEVICE_ID = "deviceId";
    static final String APP_ID = "appId";
    static final String PRIORITY = "priority";
    static final String FILTER = "filter";
    static final String QFI = "qfi";
    static final String METER = "meter";
    private static final List<String> FIELDS =
            List.of(DEVICE_ID, APP_ID, PRIORITY, FILTER, QFI, METER);

    @Override
    public ObjectNode encode(UpfApplication a, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put(DEVICE_ID, a.deviceId().toString())
                .put(APP_ID, a.appId())
                .put(PRIORITY, a.priority())
                .put(QFI, a.qfi());
        UpfJson.encodeFilter(json.putObject(FILTER), a.filter());
        a.meter().ifPresent(m -> UpfJson.encodeMeter(json.putObject(METER), m));
        return json;
    }

    @Override
    public UpfApplication decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "application", FIELDS);
        return new UpfApplication(UpfJson.deviceId(json, DEVICE_ID),
                                  JsonFields.number(json, APP_ID),
                                  JsonFields.optionalNumber(json, PRIORITY).orElse(1L),
                                  UpfJson.decodeFilter(json, FILTER),
                                  JsonFields.number(json, QFI),
                                  UpfJson.decodeMeter(json, METER).orElse(null));
    }
}
