/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.upf.PduSession;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

import java.util.List;

/**
 * JSON of a PDU session. Decoding refuses unknown fields and ignores "id"
 * (the service assigns it).
 */
public final class PduSessionCodec extends JsonCodec<PduSession> {

    static final String ID = "id";
    static final String DEVICE_ID = "deviceId";
    static final String UE_ADDRESS = "ueAddress";
    static final String N3_ADDRESS = "n3Address";
    static final String UPLINK_TEID = "uplinkTeid";
    static final String GNB_ADDRESS = "gnbAddress";
    static final String DOWNLINK_TEID = "downlinkTeid";
    static final String GNB_PORT = "gnbPort";
    static final String QFI = "qfi";
    static final String AMBR = "ambr";
    private static final List<String> FIELDS = List.of(ID, DEVICE_ID, UE_ADDRESS, N3_ADDRESS,
                                                       UPLINK_TEID, GNB_ADDRESS, DOWNLINK_TEID,
                                                       GNB_PORT, QFI, AMBR);

    @Override
    public ObjectNode encode(PduSession s, CodecContext context) {
        ObjectNode json = context.mapper().createObjectNode()
                .put(ID, s.id())
                .put(DEVICE_ID, s.deviceId().toString())
                .put(UE_ADDRESS, s.ueAddress().toString())
                .put(N3_ADDRESS, s.n3Address().toString())
                .put(UPLINK_TEID, s.uplinkTeid())
                .put(GNB_ADDRESS, s.gnbAddress().toString())
                .put(DOWNLINK_TEID, s.downlinkTeid())
                .put(GNB_PORT, s.gnbPort())
                .put(QFI, s.qfi());
        s.ambr().ifPresent(m -> UpfJson.encodeMeter(json.putObject(AMBR), m));
        return json;
    }

    @Override
    public PduSession decode(ObjectNode json, CodecContext context) {
        UpfJson.onlyFields(json, "session", FIELDS);
        PduSession.Builder b = PduSession.builder()
                .deviceId(UpfJson.deviceId(json, DEVICE_ID))
                .ueAddress(UpfJson.unicast(UE_ADDRESS, JsonFields.text(json, UE_ADDRESS)))
                .n3Address(UpfJson.unicast(N3_ADDRESS, JsonFields.text(json, N3_ADDRESS)))
                .uplinkTeid(JsonFields.number(json, UPLINK_TEID))
                .gnbAddress(UpfJson.unicast(GNB_ADDRESS, JsonFields.text(json, GNB_ADDRESS)))
                .downlinkTeid(JsonFields.number(json, DOWNLINK_TEID));
        JsonFields.optionalNumber(json, GNB_PORT).ifPresent(b::gnbPort);
        JsonFields.optionalNumber(json, QFI).ifPresent(b::qfi);
        UpfJson.decodeMeter(json, AMBR).ifPresent(b::ambr);
        return b.build();
    }
}
