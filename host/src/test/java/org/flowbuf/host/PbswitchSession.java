/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeChannels;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.junit.rules.ExternalResource;
import org.onosproject.net.DeviceId;

import java.nio.file.Files;
import java.time.Duration;

/**
 * A test's session with a real pbswitch (bin/pbswitch) on loopback: the
 * switch process, a P4Runtime client as controller 1 and the session for
 * one device; the rule closes both after the test.
 */
public final class PbswitchSession extends ExternalResource {

    /** How long a P4Runtime call may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final DeviceId device;
    private PbswitchProcess pbswitch;
    private P4InfoIndex p4info;
    private P4RuntimeClient client;
    private SwitchSession session;

    /**
     * @param device the device id the session names
     */
    public PbswitchSession(DeviceId device) {
        this.device = device;
    }

    /**
     * Starts a switch and opens the session, without a pipeline.
     *
     * @return this
     * @throws Exception when the switch does not start
     */
    public PbswitchSession open() throws Exception {
        pbswitch = PbswitchProcess.start();
        ManagedChannel channel = P4RuntimeChannels.plaintext("127.0.0.1", pbswitch.port());
        p4info = P4InfoIndex.read(PbswitchProcess.P4INFO);
        client = new P4RuntimeClient(channel, 1, 10, TIMEOUT);
        session = new SwitchSession(device, channel, client, p4info);
        return this;
    }

    /**
     * Starts a switch, opens the session and pushes FlowBuf's pipeline.
     *
     * @return this
     * @throws Exception when the switch does not start or take the pipeline
     */
    public PbswitchSession openWithPipeline() throws Exception {
        open();
        session.start(pipeline(), TIMEOUT);
        return this;
    }

    /**
     * FlowBuf's compiled pipeline (bmv2.json).
     *
     * @return its bytes
     * @throws Exception when it cannot be read
     */
    public static ByteString pipeline() throws Exception {
        return ByteString.copyFrom(Files.readAllBytes(PbswitchProcess.BMV2_JSON));
    }

    /** @return the switch process */
    public PbswitchProcess pbswitch() {
        return pbswitch;
    }

    /** @return the P4Runtime client */
    public P4RuntimeClient client() {
        return client;
    }

    /** @return the session */
    public SwitchSession session() {
        return session;
    }

    /** @return the pipeline's P4Info */
    public P4InfoIndex p4info() {
        return p4info;
    }

    /**
     * @param table a table's name
     * @return its P4Info id
     */
    public int tableId(String table) {
        return p4info.table(table).getPreamble().getId();
    }

    @Override
    protected void after() {
        if (session != null) {
            session.close();
        }
        if (pbswitch != null) {
            try {
                pbswitch.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
