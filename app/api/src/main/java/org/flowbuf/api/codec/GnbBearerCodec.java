/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.gnb.GnbBearer;
import org.onlab.packet.MacAddress;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;
import java.util.regex.Pattern;

/**
 * JSON of a gNodeB bearer, the fields of a bearer of the "gnb" netcfg
 * section: {"teid", "cell", "ueMac", "uplinkTeid", "gnbAddress",
 * "upfAddress"}.
 */
public final class GnbBearerCodec extends JsonCodec<GnbBearer> {

    static final String TEID = "teid";
    static final String CELL = "cell";
    static final String UE_MAC = "ueMac";
    static final String UPLINK_TEID = "uplinkTeid";
    static final String GNB_ADDRESS = "gnbAddress";
    static final String UPF_ADDRESS = "upfAddress";
    /** MacAddress.valueOf's own rule, said before it (the OpenAPI document's pattern). */
    private static final Pattern MAC = Pattern.compile("[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}");

    @Override
    public ObjectNode encode(GnbBearer b, CodecContext context) {
        return context.mapper().createObjectNode().put(TEID, b.teid()).put(CELL, b.cell())
                .put(UE_MAC, b.ueMac().toString()).put(UPLINK_TEID, b.uplinkTeid())
                .put(GNB_ADDRESS, b.gnbAddress().toString())
                .put(UPF_ADDRESS, b.upfAddress().toString());
    }

    @Override
    public GnbBearer decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "bearer",
                           List.of(TEID, CELL, UE_MAC, UPLINK_TEID, GNB_ADDRESS, UPF_ADDRESS));
        String macText = JsonFields.text(json, UE_MAC);
        if (!MAC.matcher(macText).matches()) {
            throw FlowBufException.invalid("\"%s\": \"%s\" is not a MAC address "
                                                   + "(six hex pairs separated by ':')", UE_MAC,
                                           macText);
        }
        MacAddress mac = MacAddress.valueOf(macText);
        return new GnbBearer(JsonFields.number(json, TEID), JsonFields.number(json, CELL), mac,
                             JsonFields.number(json, UPLINK_TEID),
                             UpfJson.unicast(GNB_ADDRESS, JsonFields.text(json, GNB_ADDRESS)),
                             UpfJson.unicast(UPF_ADDRESS, JsonFields.text(json, UPF_ADDRESS)));
    }
}
