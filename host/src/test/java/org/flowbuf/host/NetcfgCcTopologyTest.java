/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import org.flowbuf.app.congestion.CcDigest;
import org.flowbuf.app.congestion.IdleDelay;
import org.flowbuf.host.netcfg.Netcfg;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import p4.v1.P4DataOuterClass.P4Data;
import p4.v1.P4DataOuterClass.P4StructLike;
import p4.v1.P4RuntimeOuterClass.DigestList;

import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The congestion service's view of the netcfg (hosts, links both ways,
 * idle delays per port, the congestion section) and the digest decoding.
 */
public class NetcfgCcTopologyTest {

    private static final String NETCFG = "{\"links\": {"
            + "\"device:s1/2-device:s2/1\": {\"congestion\": {\"idleQueueUs\": 7, "
            + "\"idleProcUs\": 9}},"
            + "\"device:s2/2-device:s3/1\": {}},"
            + "\"hosts\": {\"00:00:00:00:00:01/None\": {\"basic\": {\"name\": \"h1\", "
            + "\"locations\": [\"device:s1/1\"]}}},"
            + "\"apps\": {\"org.flowbuf.app\": {\"congestion\": {\"factor\": 12, "
            + "\"idleQueueUs\": 30, \"idleProcUs\": 40, \"markerBoundMs\": 800}}}}";

    private static Netcfg netcfg(String json) throws Exception {
        return Netcfg.parse(new ObjectMapper().readTree(json));
    }

    private static IdleDelay idle(NetcfgCcTopology t, String device, long port) {
        return t.of(DeviceId.deviceId(device), PortNumber.portNumber(port));
    }

    @Test
    public void thePageGetsTheLinksOnceEachAndTheSwitches() throws Exception {
        Netcfg paper = netcfg("{\"devices\": {\"device:s1\": {\"basic\": {\"managementAddress\": "
                + "\"grpc://127.0.0.1:50001?device_id=1\"}}}}");
        assertEquals("[\"device:s1\"]", new ObjectMapper().readTree(paper.topologyJson())
                .get("switches").toString());
        assertEquals("[{\"one\":\"device:s1/2\",\"other\":\"device:s2/1\"},"
                             + "{\"one\":\"device:s2/2\",\"other\":\"device:s3/1\"}]",
                     new ObjectMapper().readTree(netcfg(NETCFG).topologyJson()).get("links")
                             .toString());
    }

    @Test
    public void hostsLinksAndIdleDelaysComeFromTheNetcfg() throws Exception {
        Netcfg cfg = netcfg(NETCFG);
        NetcfgCcTopology topology = new NetcfgCcTopology(cfg);
        assertEquals(4, topology.links().size());
        assertEquals("device:s1/1", topology.find("h1").orElseThrow().location().toString());
        assertTrue(topology.find("00:00:00:00:00:01").isPresent());
        assertFalse(topology.find("h9").isPresent());
        assertFalse(topology.find("00:00:00:00:00:99").isPresent());
        assertEquals(7, idle(topology, "device:s1", 2).queueUs());
        assertEquals(9, idle(topology, "device:s2", 1).procUs());  // both ends of the link
        assertEquals(30, idle(topology, "device:s2", 2).queueUs()); // the section's default
        assertEquals(40, idle(topology, "device:s1", 1).procUs());  // a host port
        assertEquals(12.0, cfg.congestion().factor(), 0);
        assertEquals(800, cfg.congestion().markerBoundMs());
    }

    @Test
    public void withoutASectionTheDefaultsApply() throws Exception {
        Netcfg cfg = netcfg("{}");
        assertEquals(5.0, cfg.congestion().factor(), 0);
        assertEquals(50, cfg.congestion().defaultIdle().queueUs());
        assertEquals(500, cfg.congestion().markerBoundMs());
    }

    @Test
    public void badCongestionSettingsNameTheField() throws Exception {
        for (String bad : List.of(
                "{\"apps\": {\"org.flowbuf.app\": {\"congestion\": {\"factor\": 0.5}}}}",
                "{\"apps\": {\"org.flowbuf.app\": {\"congestion\": {\"idleQueueUs\": 0}}}}",
                "{\"apps\": {\"org.flowbuf.app\": {\"congestion\": {\"markerBoundMs\": 0}}}}",
                "{\"links\": {\"device:s1/2-device:s2/1\": {\"congestion\": "
                        + "{\"idleProcUs\": -1}}}}")) {
            try {
                netcfg(bad);
                fail("accepted " + bad);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("congestion"));
            }
        }
    }

    @Test
    public void aDigestListDecodesToItsSwitchOvers() {
        DigestList list = DigestList.newBuilder().setDigestId(1).setListId(1)
                .addData(digest(7, 3, 1, 1500, 20))
                .addData(P4Data.newBuilder().setStruct(P4StructLike.newBuilder()
                        .addMembers(bits(1))).build())  // malformed: left out
                .build();
        List<CcDigest> digests = CcSwitchSetup.decode(list);
        assertEquals(1, digests.size());
        CcDigest d = digests.get(0);
        assertEquals(List.of(7, 3, 1, 1500L, 20L),
                     List.of(d.index(), d.switchId(), d.slot(), d.queueUs(), d.procUs()));
    }

    private static P4Data digest(long... members) {
        P4StructLike.Builder s = P4StructLike.newBuilder();
        for (long m : members) {
            s.addMembers(bits(m));
        }
        return P4Data.newBuilder().setStruct(s).build();
    }

    private static P4Data bits(long value) {
        return P4Data.newBuilder().setBitstring(ByteString.copyFrom(
                java.math.BigInteger.valueOf(value).toByteArray())).build();
    }
}
