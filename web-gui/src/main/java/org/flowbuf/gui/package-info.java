/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf in ONOS's topology view: device badges with buffer counts and fill,
 * hosts of paused flows highlighted, a buffer list in the device details
 * panel, pause/resume requests; the same JSON model as the REST API.
 */
package org.flowbuf.gui;
