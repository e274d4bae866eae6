/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The host's options: the device config defaults to p4c's bmv2.json beside
 * the p4info, since pbswitch and Stratum-bmv2 both run it.
 */
public class HostOptionsTest {

    @Rule
    public TemporaryFolder dir = new TemporaryFolder();

    private Path file(String name) throws Exception {
        Path p = dir.getRoot().toPath().resolve(name);
        Files.writeString(p, "x");
        return p;
    }

    @Test
    public void theDeviceConfigDefaultsToTheBmv2JsonBesideTheP4info() throws Exception {
        Path netcfg = file("netcfg.json");
        Path p4info = file("p4info.txt");
        HostOptions none = HostOptions.parse(new String[]{"--netcfg", netcfg.toString(),
                "--p4info", p4info.toString()});
        assertFalse("no bmv2.json yet", none.deviceConfig.isPresent());

        Path json = file("bmv2.json");
        HostOptions beside = HostOptions.parse(new String[]{"--netcfg", netcfg.toString(),
                "--p4info", p4info.toString()});
        assertEquals(json.toAbsolutePath(), beside.deviceConfig.orElseThrow());

        Path other = file("other.json");
        HostOptions given = HostOptions.parse(new String[]{"--netcfg", netcfg.toString(),
                "--p4info", p4info.toString(), "--device-config", other.toString()});
        assertTrue(given.deviceConfig.isPresent());
        assertEquals(other, given.deviceConfig.get());
    }

    @Test
    public void anUnreadableDeviceConfigIsRefusedByName() throws Exception {
        try {
            HostOptions.parse(new String[]{"--netcfg", file("n.json").toString(),
                    "--p4info", file("p.txt").toString(), "--device-config", "/nonexistent/bmv2.json"});
            fail("accepted a device config that does not exist");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("--device-config: cannot read /nonexistent/bmv2.json"));
        }
    }
}
