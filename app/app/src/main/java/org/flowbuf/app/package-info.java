/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The Buffer Service core, assembled without OSGi so ONOS and the embedded
 * host run the same code.
 */
package org.flowbuf.app;
