/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.event.EventListener;

/**
 * Receives buffer events.
 */
public interface BufferListener extends EventListener<BufferEvent> {
}
