/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

/** What a full buffer does with one more packet. */
public enum OverflowPolicy {
    /** The new packet is dropped (the default). */
    DROP_TAIL,
    /** The oldest packets are dropped until the new one fits. */
    DROP_HEAD
}
