/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;

import static org.flowbuf.pipeconf.GnbP4Names.DOWNLINK_BEARERS;
import static org.flowbuf.pipeconf.GnbP4Names.PORTS;
import static org.flowbuf.pipeconf.GnbP4Names.UPLINK_BEARERS;
import static org.junit.Assert.assertEquals;

/**
 * A device's "gnb" section written to a real pbswitch and read back over
 * P4Runtime: the UPF port and each cell's ports, each bearer both ways and
 * a clone session per cell; written again (a restarted host or switch),
 * nothing is doubled and nothing fails.
 */
public class GnbTablesTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:gnb1");
    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.test");

    @Rule
    public final PbswitchSession pbswitch = new PbswitchSession(DEVICE);

    @Test
    public void theSectionIsWrittenAndReadBack() throws Exception {
        pbswitch.openWithPipeline();
        P4RuntimeClient client = pbswitch.client();
        ObjectMapper mapper = new ObjectMapper();
        GnbDeviceConfig gnb = new GnbDeviceConfig();
        String bearer = "{\"teid\": %d, \"cell\": %d, \"ueMac\": \"02:00:00:00:0e:01\", \"uplinkTeid\": 4660, "
                + "\"gnbAddress\": \"10.0.0.200\", \"upfAddress\": \"10.0.0.100\"}";
        gnb.init(DEVICE, GnbDeviceConfig.CONFIG_KEY, (ObjectNode) mapper.readTree(
                "{\"upfPort\": 1, \"cells\": [{\"id\": 1, \"radioPort\": 2, \"baasPort\": 3}, "
                        + "{\"id\": 2, \"radioPort\": 4, \"baasPort\": 5}], \"bearers\": ["
                        + String.format(bearer, 100, 1) + ", " + String.format(bearer, 101, 2) + ", "
                        + String.format(bearer, 102, 2) + "]}"), mapper, c -> { });
        for (int write = 0; write < 2; write++) {
            GnbTables.write(pbswitch.session(), APP, gnb);
            assertEquals(5, client.readTable(pbswitch.tableId(PORTS.id())).size());
            assertEquals(3, client.readTable(pbswitch.tableId(DOWNLINK_BEARERS.id())).size());
            assertEquals(3, client.readTable(pbswitch.tableId(UPLINK_BEARERS.id())).size());
        }
    }
}
