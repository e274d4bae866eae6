/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/** How a buffer orders what it holds. */
public enum QueueType {
    /** First in, first out (the default). */
    FIFO,
    /** Strict priority between classes the pipeline marks; FIFO inside a class. */
    PRIORITY,
    /** Kept and resent until acknowledged (buffer-as-a-service for a radio link). */
    ARQ
}
