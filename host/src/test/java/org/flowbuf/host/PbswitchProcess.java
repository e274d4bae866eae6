/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host;

import org.junit.Assume;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.fail;

/**
 * A real pbswitch (bin/pbswitch, built by {@code go build -o bin/
 * ./pbswitch/cmd/pbswitch}) on loopback for the host's tests; a test that
 * needs one skips, saying so, when the binary is not built.
 */
public final class PbswitchProcess implements AutoCloseable {

    /** The binary. */
    public static final Path BINARY = Paths.get("..", "bin", "pbswitch");
    /** The pipeline's p4info. */
    public static final Path P4INFO = Paths.get("..", "pipeconf", "p4src", "build", "p4info.txt");
    /** The pipeline's bmv2 JSON. */
    public static final Path BMV2_JSON = Paths.get("..", "pipeconf", "p4src", "build",
                                                   "bmv2.json");

    private final List<String> argv;
    private final int port;
    private final File log;
    private Process process;

    private PbswitchProcess(int port, List<String> extra) throws IOException {
        this.port = port;
        this.argv = new ArrayList<>(List.of(BINARY.toString(), "--device-id", "1",
                                            "--p4rt-listen", "127.0.0.1:" + port,
                                            "--buffer-listen", ""));
        argv.addAll(extra);
        this.log = File.createTempFile("pbswitch-test", ".log");
        log.deleteOnExit();
    }

    /**
     * Starts a pbswitch on a free port with extra flags and waits until it
     * listens; skips the calling test when the binary is not built.
     *
     * @param extra more flags
     * @return the running switch
     * @throws Exception when it cannot start
     */
    public static PbswitchProcess start(String... extra) throws Exception {
        Assume.assumeTrue("needs " + BINARY.toAbsolutePath()
                                  + " (go build -o bin/ ./pbswitch/cmd/pbswitch)",
                          Files.isExecutable(BINARY));
        PbswitchProcess sw = new PbswitchProcess(freePort(), List.of(extra));
        sw.restart();
        return sw;
    }

    /**
     * A TCP port nothing listens on now.
     *
     * @return port
     * @throws IOException when no socket can be opened
     */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, new InetSocketAddress("127.0.0.1", 0)
                .getAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Starts the process again on the same port (after {@link #kill()}).
     *
     * @throws Exception when it does not listen within 15 s
     */
    public void restart() throws Exception {
        process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("pbswitch exited: " + log());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        fail("pbswitch did not listen on " + port + ": " + log());
    }

    /**
     * Its P4Runtime port.
     *
     * @return TCP port on 127.0.0.1
     */
    public int port() {
        return port;
    }

    /**
     * Its output so far.
     *
     * @return the log
     * @throws IOException when it cannot be read
     */
    public String log() throws IOException {
        return Files.readString(log.toPath());
    }

    /**
     * Kills it (SIGKILL) and waits for it to end.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            kill();
        }
    }
}
