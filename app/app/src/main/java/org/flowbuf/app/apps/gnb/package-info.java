/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The hybrid gNodeB (include/gnb.p4): the PI entries and clone sessions that
 * make a device a gNodeB whose cells keep their downlink PDUs in FlowBuf's
 * PDCP ARQ buffers (buffer-as-a-service).
 */
package org.flowbuf.app.apps.gnb;
