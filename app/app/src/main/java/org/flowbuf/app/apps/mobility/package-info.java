/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * LTE mobility management (LMM) on the Buffer Service's public APIs.
 */
package org.flowbuf.app.apps.mobility;
