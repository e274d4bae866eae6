/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The congestion-avoidance service: path computation, threshold
 * derivation, the congestion.p4 entries, and the reaction to switch-over
 * digests; the same core in ONOS and in the embedded host.
 */
package org.flowbuf.app.congestion;
