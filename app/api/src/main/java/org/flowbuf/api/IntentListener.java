/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.event.EventListener;

/**
 * Receives intent events.
 */
public interface IntentListener extends EventListener<IntentEvent> {
}
