/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The embedded host's HTTP server: FlowBuf's REST resources, unchanged.
 */
package org.flowbuf.host.rest;
