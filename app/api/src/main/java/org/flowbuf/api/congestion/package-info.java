/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Congestion avoidance for latency-critical flows (Turkovic et al.): the
 * model and the service that registers a flow on a primary and a disjoint
 * backup path, with per-switch delay thresholds checked in the data plane.
 */
package org.flowbuf.api.congestion;
