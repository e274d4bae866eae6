/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * A P4Runtime client of the embedded host: arbitration, pipeline push,
 * writes of PI table entries encoded by p4info names, packet I/O, digests.
 */
package org.flowbuf.host.p4rt;
