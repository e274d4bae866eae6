/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/**
 * A running marker watch; closing it ends the watch (idempotent).
 */
public interface MarkerWatch extends AutoCloseable {

    @Override
    void close();
}
