/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.fba;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The "fba" netcfg section: good ones read, bad ones refused naming the field.
 */
public class FbaSettingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static FbaSetting parse(String json) throws IOException {
        return FbaSetting.parse(JSON.readTree(json));
    }

    @Test
    public void aSectionGivesTheAddressAndThePeriodDefaultingToOneSecond() throws IOException {
        FbaSetting s = parse("{\"adminAddress\": \"127.0.0.1:9560\"}");
        assertEquals("127.0.0.1:9560", s.adminAddress());
        assertEquals(Duration.ofSeconds(1), s.period());
        assertEquals(Duration.ofMillis(250),
                     parse("{\"adminAddress\": \"sw1:9560\", \"periodMs\": 250}").period());
    }

    @Test
    public void badSectionsAreRefusedNamingTheField() throws IOException {
        Map<String, String> bad = Map.of(
                "[]", "must be an object",
                "{}", "adminAddress must be host:port, not \"\"",
                "{\"adminAddress\": \"sw1\"}", "adminAddress must be host:port",
                "{\"adminAddress\": \"sw1:99999\"}", "adminAddress must be host:port",
                "{\"adminAddress\": \"sw1:1\", \"periodMs\": 5}", "periodMs must be",
                "{\"adminAddress\": \"sw1:1\", \"periodMs\": 1.5}", "periodMs must be",
                "{\"adminAddress\": \"sw1:1\", \"periodMs\": \"1000\"}", "periodMs must be",
                "{\"adminAddress\": \"sw1:1\", \"periodMs\": 3600001}", "periodMs must be",
                "{\"adminAddress\": \"sw1:1\", \"alpha\": 2}", "unknown field alpha");
        for (Map.Entry<String, String> c : bad.entrySet()) {
            try {
                parse(c.getKey());
                fail("accepted " + c.getKey());
            } catch (IllegalArgumentException e) {
                assertTrue(c.getKey() + ": " + e.getMessage(),
                           e.getMessage().contains(c.getValue()));
            }
        }
    }
}
