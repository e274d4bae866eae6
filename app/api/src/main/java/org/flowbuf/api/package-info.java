/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf's public API: the programmable-buffer model and the Buffer Service.
 */
package org.flowbuf.api;
