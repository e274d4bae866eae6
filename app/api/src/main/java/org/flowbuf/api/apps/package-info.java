/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Public APIs of the buffer-based applications built on the Buffer Service.
 */
package org.flowbuf.api.apps;
