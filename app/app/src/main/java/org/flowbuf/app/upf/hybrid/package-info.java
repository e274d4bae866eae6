/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The hybrid UPF's placement: heavy hitters on the fast path's small
 * session table, every other UE on the slow path, moves that lose and
 * reorder nothing.
 */
package org.flowbuf.app.upf.hybrid;
