/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import org.flowbuf.host.p4rt.P4InfoIndex;
import org.flowbuf.host.p4rt.P4RuntimeClient;
import org.flowbuf.host.p4rt.SwitchSession;
import org.junit.After;
import org.junit.Assume;
import org.junit.Test;
import org.onosproject.net.DeviceId;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A session with a real pbswitch (bin/pbswitch) that is killed (-9) and
 * started again on the same address: the session says it lost the switch,
 * and starting it again makes the host primary of the new process and
 * pushes the pipeline it lost. Loopback only; no root.
 */
public class PbswitchRestartTest {

    private static final Path PBSWITCH = Paths.get("..", "bin", "pbswitch");
    private static final Path P4INFO = Paths.get("..", "pipeconf", "p4src", "build",
                                                 "p4info.txt");
    private static final Path BMV2_JSON = Paths.get("..", "pipeconf", "p4src", "build",
                                                    "bmv2.json");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private Process pbswitch;
    private File log;
    private SwitchSession session;
    private ManagedChannel channel;

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, new InetSocketAddress("127.0.0.1", 0)
                .getAddress())) {
            return socket.getLocalPort();
        }
    }

    private void startPbswitch(int port) throws Exception {
        pbswitch = new ProcessBuilder(PBSWITCH.toString(), "--device-id", "1", "--p4rt-listen",
                                      "127.0.0.1:" + port, "--buffer-listen", "")
                .redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!pbswitch.isAlive()) {
                fail("pbswitch exited: " + Files.readString(log.toPath()));
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        fail("pbswitch did not listen on " + port);
    }

    @After
    public void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        if (pbswitch != null) {
            pbswitch.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    public void aRestartedSwitchIsReportedAndTakenBack() throws Exception {
        Assume.assumeTrue("needs " + PBSWITCH.toAbsolutePath()
                                  + " (go build -o bin/ ./pbswitch/cmd/pbswitch)",
                          Files.isExecutable(PBSWITCH));
        log = File.createTempFile("pbswitch-restart", ".log");
        log.deleteOnExit();
        int port = freePort();
        startPbswitch(port);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        session = new SwitchSession(DeviceId.deviceId("device:s1"), channel,
                                    new P4RuntimeClient(channel, 1, 10, TIMEOUT),
                                    P4InfoIndex.read(P4INFO));
        ByteString config = ByteString.copyFrom(Files.readAllBytes(BMV2_JSON));
        Semaphore lost = new Semaphore(0);
        session.onDisconnect(lost::release);
        assertTrue("a fresh switch gets the pipeline", session.start(config, TIMEOUT));
        assertFalse("taken again while it runs: its pipeline (and tables) kept",
                    session.start(config, TIMEOUT));
        assertEquals("replacing its own stream is no loss", 0, lost.availablePermits());

        pbswitch.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        assertTrue("the session says it lost the switch", lost.tryAcquire(10, TimeUnit.SECONDS));
        startPbswitch(port);
        assertTrue("the restarted switch lost its pipeline: pushed again",
                   session.start(config, TIMEOUT));
        assertEquals("one kill, one loss", 0, lost.availablePermits());
    }
}
