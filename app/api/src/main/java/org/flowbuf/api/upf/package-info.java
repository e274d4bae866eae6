/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The 5G User Plane Function service: PDU sessions, applications, firewall
 * rules and UPF interfaces, which the pipeline's UPF (upf.p4, firewall.p4)
 * executes.
 */
package org.flowbuf.api.upf;
