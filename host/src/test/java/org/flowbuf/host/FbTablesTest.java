/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import org.flowbuf.app.apps.fb.FbFlowRules;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeChannels;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.junit.After;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import p4.v1.P4RuntimeOuterClass.TableEntry;

import java.math.BigInteger;
import java.nio.file.Files;
import java.time.Duration;

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
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private PbswitchProcess pbswitch;
    private ManagedChannel channel;
    private SwitchSession session;

    @After
    public void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        if (pbswitch != null) {
            pbswitch.close();
        }
    }

    private static FbDeviceConfig config(String json) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        FbDeviceConfig config = new FbDeviceConfig();
        config.init(DEVICE, FbDeviceConfig.CONFIG_KEY, (ObjectNode) mapper.readTree(json), mapper,
                    c -> { });
        return config;
    }

    @Test
    public void theSectionIsWrittenAndReadBack() throws Exception {
        pbswitch = PbswitchProcess.start();
        channel = P4RuntimeChannels.plaintext("127.0.0.1", pbswitch.port());
        P4InfoIndex p4info = P4InfoIndex.read(PbswitchProcess.P4INFO);
        P4RuntimeClient client = new P4RuntimeClient(channel, 1, 10, TIMEOUT);
        session = new SwitchSession(DEVICE, channel, client, p4info);
        session.start(ByteString.copyFrom(Files.readAllBytes(PbswitchProcess.BMV2_JSON)), TIMEOUT);
        FbDeviceConfig fb = config("{\"bufferPackets\": 300, \"ports\": [1, 2, 3], "
                                           + "\"classes\": [{\"queue\": 7, \"alpha\": 2, "
                                           + "\"priority\": \"high\"}]}");
        long shifts = FbFlowRules.entries(APP, DEVICE, fb).stream()
                .filter(r -> r.table().equals(SHIFT)).count();
        for (int write = 0; write < 2; write++) {
            FbTables.write(session, APP, fb);
            assertEquals(3 * 8, client.readTable(id(p4info, CLASSES.id())).size());
            assertEquals(shifts, client.readTable(id(p4info, SHIFT.id())).size());
            TableEntry b = client.readDefaultEntry(id(p4info, BUFFER.id()));
            assertEquals(p4info.action(SET_BUFFER.id()).getPreamble().getId(),
                         b.getAction().getAction().getActionId());
            assertEquals(300, new BigInteger(1, b.getAction().getAction().getParams(0).getValue()
                    .toByteArray()).intValue());
        }
    }

    private static int id(P4InfoIndex p4info, String table) {
        return p4info.table(table).getPreamble().getId();
    }
}
