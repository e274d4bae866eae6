/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import org.onosproject.event.ListenerService;

/**
 * Where other apps, the GUI overlay and the REST event stream subscribe to
 * intent lifecycle changes.
 */
public interface IntentEventService extends ListenerService<IntentEvent, IntentListener> {
}
