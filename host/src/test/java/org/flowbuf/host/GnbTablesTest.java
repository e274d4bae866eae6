/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.app.apps.gnb.GnbManager;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.flowbuf.pipeconf.GnbP4Names.DOWNLINK_BEARERS;
import static org.flowbuf.pipeconf.GnbP4Names.PORTS;
import static org.flowbuf.pipeconf.GnbP4Names.UPLINK_BEARERS;
import static org.junit.Assert.assertEquals;

/**
 * A device's "gnb" section written to a real pbswitch through the host's
 * writer and read back over P4Runtime: the UPF port and each cell's ports,
 * each bearer both ways; written again (a restarted host or switch),
 * nothing is doubled and nothing fails; a bearer added and one removed
 * change just their entries (and the SN cell of those after it).
 */
public class GnbTablesTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:gnb1");
    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.test");
    private static final String BEARER = "{\"teid\": %d, \"cell\": %d, \"ueMac\": "
            + "\"02:00:00:00:0e:01\", \"uplinkTeid\": 4660, \"gnbAddress\": \"10.0.0.200\", "
            + "\"upfAddress\": \"10.0.0.100\"}";

    @Rule
    public final PbswitchSession pbswitch = new PbswitchSession(DEVICE);

    private static GnbDeviceConfig section() throws Exception {
        return GnbDeviceConfig.of(DEVICE, (ObjectNode) new ObjectMapper().readTree(
                "{\"upfPort\": 1, \"cells\": [{\"id\": 1, \"radioPort\": 2, \"baasPort\": 3}, "
                        + "{\"id\": 2, \"radioPort\": 4, \"baasPort\": 5}], \"bearers\": ["
                        + String.format(BEARER, 100, 1) + ", " + String.format(BEARER, 101, 2)
                        + ", " + String.format(BEARER, 102, 2) + "]}"));
    }

    /** The downlink bearers on the switch: TEID → its SN cell. */
    private Map<Long, Long> downlink() {
        P4RuntimeClient client = pbswitch.client();
        return client.readTable(pbswitch.tableId(DOWNLINK_BEARERS.id())).stream().collect(
                Collectors.toMap(e -> value(e.getMatch(0).getExact().getValue().toByteArray()),
                                 GnbTablesTest::snIndex));
    }

    private static long snIndex(TableEntry e) {
        return value(e.getAction().getAction().getParamsList().stream()
                             .filter(p -> p.getParamId() == 1).findFirst().orElseThrow()
                             .getValue().toByteArray());
    }

    private static long value(byte[] bytes) {
        return new BigInteger(1, bytes).longValue();
    }

    @Test
    public void theSectionIsWrittenReadBackAndChangedBearerByBearer() throws Exception {
        pbswitch.openWithPipeline();
        P4RuntimeClient client = pbswitch.client();
        GnbManager gnb = new GnbManager(APP, new GnbTables(Map.of(DEVICE, pbswitch.session())),
                                        d -> true, (d, s) -> { });
        gnb.configure(DEVICE, Optional.of(section()));
        for (int write = 0; write < 2; write++) {
            assertEquals("2 clone sessions, 5 ports, 3 bearers both ways", 13,
                         gnb.rewrite(DEVICE));
            assertEquals(5, client.readTable(pbswitch.tableId(PORTS.id())).size());
            assertEquals(Map.of(100L, 0L, 101L, 1L, 102L, 2L), downlink());
            assertEquals(3, client.readTable(pbswitch.tableId(UPLINK_BEARERS.id())).size());
        }
        gnb.addBearer(DEVICE, new GnbBearer(103, 1, MacAddress.valueOf("02:00:00:00:0e:03"), 4663,
                                            Ip4Address.valueOf("10.0.0.200"),
                                            Ip4Address.valueOf("10.0.0.100")));
        assertEquals(Map.of(100L, 0L, 101L, 1L, 102L, 2L, 103L, 3L), downlink());
        gnb.removeBearer(DEVICE, 101);
        assertEquals(Map.of(100L, 0L, 102L, 1L, 103L, 2L), downlink());
        assertEquals(3, client.readTable(pbswitch.tableId(UPLINK_BEARERS.id())).size());
        assertEquals(5, client.readTable(pbswitch.tableId(PORTS.id())).size());
    }
}
