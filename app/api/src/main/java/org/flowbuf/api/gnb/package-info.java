/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The hybrid gNodeB service: each gNodeB device's UPF port, cells (radio
 * port, BaaS buffer port) and bearers, which the pipeline's gnb.p4
 * executes.
 */
package org.flowbuf.api.gnb;
