/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Packet-out for applications that inject packets (the LMM end marker).
 */
package org.flowbuf.app.packet;
