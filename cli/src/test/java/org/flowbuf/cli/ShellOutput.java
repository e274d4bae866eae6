/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.junit.rules.ExternalResource;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What commands print during a test (they print to System.out and
 * System.err, as Karaf's shell sees them); the streams are put back after.
 */
final class ShellOutput extends ExternalResource {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream stdout;
    private PrintStream stderr;

    @Override
    protected void before() {
        // SLF4J warns on stderr once, at its first use (no binding in the
        // tests): that is not a command's output.
        LoggerFactory.getLogger(ShellOutput.class);
        stdout = System.out;
        stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    protected void after() {
        System.setOut(stdout);
        System.setErr(stderr);
    }

    /** What went to stdout so far. */
    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What went to stderr so far. */
    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Forgets stdout so far. */
    void resetOut() {
        out.reset();
    }

    /** Forgets stderr so far. */
    void resetErr() {
        err.reset();
    }
}
