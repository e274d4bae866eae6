/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.JsonFields;
import org.junit.Test;
import org.onosproject.net.PortNumber;

import java.io.File;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import static org.junit.Assert.assertEquals;

/**
 * The shared formats the OpenAPI document states (src/main/openapi/overlay.json,
 * which the build overlays on ONOS's generated document) take exactly what
 * the server takes, on samples from both sides of each rule: a pattern that
 * drifted from the server's check would make the document lie.
 */
public class OpenApiFormatsTest {

    private static final JsonNode FORMATS = read().path("definitions");

    private static JsonNode read() {
        try {
            return new ObjectMapper().readTree(new File("src/main/openapi/overlay.json"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean documented(String format, String text) {
        JsonNode schema = FORMATS.path(format);
        return Pattern.compile(schema.path("pattern").asText()).matcher(text).find()
                && text.length() <= schema.path("maxLength").asInt(Integer.MAX_VALUE);
    }

    private static boolean taken(Consumer<String> check, String text) {
        try {
            check.accept(text);
            return true;
        } catch (FlowBufException e) {
            return false;
        }
    }

    private static void assertAgree(String format, Consumer<String> check, String... samples) {
        for (String sample : samples) {
            assertEquals(format + " \"" + sample + "\"", documented(format, sample), taken(check, sample));
        }
    }

    @Test
    public void deviceIds() {
        assertAgree("DeviceId", id -> JsonFields.deviceId("deviceId", id),
                    "device:s1", "of:0000000000000001", "netconf:10.0.0.1:830", "a+b.c-d:x~y@z",
                    "s1", ":s1", "device:", "device:s1/3", "device:s 1", "1device:s1", "device:s1?x",
                    "device:s1#x", "device:\u00e9", "device:" + "s".repeat(1017), "device:" + "s".repeat(1018));
    }

    @Test
    public void connectPoints() {
        ObjectNode json = new ObjectMapper().createObjectNode();
        assertAgree("ConnectPoint", text -> JsonFields.connectPoint(json.put("in", text), "cell", "in"),
                    "device:s1/3", "device:s1/999999999", "of:1/1", "device:s1/0", "device:s1/03",
                    "device:s1", "device:s1/", "device:s1/x", "s1/3", "device:s 1/3", "device:s1/3/4",
                    // The device id's bound (1024, ONOS's DeviceId) within the connect point's.
                    "device:" + "s".repeat(1017) + "/999999999", "device:" + "s".repeat(1018) + "/1",
                    "device:" + "s".repeat(1018) + "/999999999");
    }

    @Test
    public void bufferIds() {
        assertAgree("BufferId", BufferId::bufferId, "b1", "ready-1", "a.b:c_d-e", "x".repeat(64),
                    "", "x".repeat(65), "b 1", "b/1", "b\u00e9");
    }

    @Test
    public void physicalPortsEndWhereOnosLogicalPortsBegin() {
        JsonNode port = FORMATS.path("PortNumber");
        assertEquals(1, port.path("minimum").asLong());
        long max = port.path("maximum").asLong();
        assertEquals(false, PortNumber.portNumber(max).isLogical());
        assertEquals(true, PortNumber.portNumber(max + 1).isLogical());
    }
}
