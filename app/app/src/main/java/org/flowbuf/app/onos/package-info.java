/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The ONOS components that run the Buffer Service core inside ONOS.
 */
package org.flowbuf.app.onos;
