/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf southbound: the client of the buffer agents and the operations it sends.
 */
package org.flowbuf.app.southbound;
