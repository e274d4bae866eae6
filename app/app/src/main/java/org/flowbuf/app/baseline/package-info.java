/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Baselines the paper compares programmable buffers with, built on the same
 * rules and packet I/O as FlowBuf so that figures compare like with like.
 */
package org.flowbuf.app.baseline;
