/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf's network configuration: per device, where its buffer agent is.
 */
package org.flowbuf.app.config;
