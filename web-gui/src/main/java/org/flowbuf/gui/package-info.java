/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf in ONOS's topology view: device badges with buffer counts and fill,
 * hosts of paused flows highlighted, a buffer list in the device details
 * panel, pause/resume requests, a latency-critical flow's primary and backup
 * paths as link highlights with its record in the details panel; the same
 * JSON model as the REST API.
 */
package org.flowbuf.gui;
