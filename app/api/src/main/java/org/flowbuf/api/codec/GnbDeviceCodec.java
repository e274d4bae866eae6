/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbCell;
import org.flowbuf.api.gnb.GnbDevice;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a gNodeB device (encode only): {"deviceId", "upfPort", "cells":
 * [{"id", "radioPort", "baasPort"}], "bearers": [bearer + "snIndex"]}.
 */
public final class GnbDeviceCodec extends JsonCodec<GnbDevice> {

    static final String DEVICE_ID = "deviceId";
    static final String UPF_PORT = "upfPort";
    static final String CELLS = "cells";
    static final String BEARERS = "bearers";
    static final String SN_INDEX = "snIndex";

    @Override
    public ObjectNode encode(GnbDevice device, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put(DEVICE_ID, device.deviceId().toString()).put(UPF_PORT, device.upfPort());
        ArrayNode cells = json.putArray(CELLS);
        for (GnbCell c : device.cells()) {
            cells.addObject().put("id", c.id()).put("radioPort", c.radioPort())
                    .put("baasPort", c.baasPort());
        }
        ArrayNode bearers = json.putArray(BEARERS);
        GnbBearerCodec bearerCodec = new GnbBearerCodec();
        int index = 0;
        for (GnbBearer b : device.bearers()) {
            bearers.add(bearerCodec.encode(b, context).put(SN_INDEX, index++));
        }
        return json;
    }
}
