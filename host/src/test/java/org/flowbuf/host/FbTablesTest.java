/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.junit.Rule;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;

import static org.flowbuf.pipeconf.FbP4Names.BUFFER;
import static org.flowbuf.pipeconf.FbP4Names.CLASSES;
import static org.flowbuf.pipeconf.FbP4Names.SET_BUFFER;
import static org.flowbuf.pipeconf.FbP4Names.SHIFT;
import static org.junit.Assert.assertEquals;

/**
 * A device's "fb" section written to a real pbswitch and read back over
 * P4Runtime: a class entry per port and queue, the shift plan, B as the
 * default action; written again (a restarted host), nothing is doubled and
 * the switch's hundred ALREADY_EXISTS errors are read, not a reset stream.
 */
public class FbTablesTest {

    private static final DeviceId DEVICE = DeviceId.deviceId("device:s1");
    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.test");

    @Rule
    public final PbswitchSession pbswitch = new PbswitchSession(DEVICE);

    private static FbDeviceConfig config(String json) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        FbDeviceConfig config = new FbDeviceConfig();
        config.init(DEVICE, FbDeviceConfig.CONFIG_KEY, (ObjectNode) mapper.readTree(json), mapper,
                    c -> { });
        return config;
    }

    @Test
    public void theSectionIsWrittenAndReadBack() throws Exception {
        pbswitch.openWithPipeline();
        P4RuntimeClient client = pbswitch.client();
        P4InfoIndex p4info = pbswitch.p4info();
        FbDeviceConfig fb = config("{\"bufferPackets\": 300, \"ports\": [1, 2, 3], "
                                           + "\"classes\": [{\"queue\": 7, \"alpha\": 2, "
                                           + "\"priority\": \"high\"}]}");
        long shifts = FbFlowRules.entries(APP, DEVICE, fb).stream()
                .filter(r -> r.table().equals(SHIFT)).count();
        for (int write = 0; write < 2; write++) {
            FbTables.write(pbswitch.session(), APP, fb);
            assertEquals(3 * 8, client.readTable(pbswitch.tableId(CLASSES.id())).size());
            assertEquals(shifts, client.readTable(pbswitch.tableId(SHIFT.id())).size());
            TableEntry b = client.readDefaultEntry(pbswitch.tableId(BUFFER.id()));
            assertEquals(p4info.action(SET_BUFFER.id()).getPreamble().getId(),
                         b.getAction().getAction().getActionId());
            assertEquals(300, new BigInteger(1, b.getAction().getAction().getParams(0).getValue()
                    .toByteArray()).intValue());
        }
    }
}
