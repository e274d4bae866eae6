/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Device ids and connect points are refused unless they have the form the
 * REST document states (overlay.json's DeviceId and ConnectPoint patterns),
 * so that a request the document calls invalid is never acted on.
 */
public class JsonFieldsTest {

    @Test
    public void deviceIdsOfTheDocumentedFormAreTaken() {
        for (String id : new String[]{"device:s1", "of:0000000000000001", "netconf:10.0.0.1:830"}) {
            assertEquals(DeviceId.deviceId(id), JsonFields.deviceId("deviceId", id));
        }
    }

    @Test
    public void otherDeviceIdsAreRefusedWithTheField() {
        String tooLong = "device:" + "s".repeat(JsonFields.DEVICE_ID_MAX_LENGTH);
        for (String id : new String[]{null, "", "s1", ":s1", "device:", "device:s1/3", "device:s 1",
                "1device:s1", "device:s1?x", tooLong}) {
            try {
                JsonFields.deviceId("serving", id);
                fail(id + " accepted");
            } catch (FlowBufException e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("serving: bad device id"));
            }
        }
    }

    @Test
    public void connectPointsNeedADeviceIdAndAPhysicalPort() {
        ObjectNode json = new ObjectMapper().createObjectNode().put("in", "device:s1/3");
        assertEquals("device:s1/3", JsonFields.connectPoint(json, "anchor", "in").toString());
        for (String bad : new String[]{"device:s1", "device:s1/0", "device:s1/x", "s1/3", "device:s 1/3"}) {
            json.put("in", bad);
            try {
                JsonFields.connectPoint(json, "anchor", "in");
                fail(bad + " accepted");
            } catch (FlowBufException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("is not a connect point"));
            }
        }
    }
}
