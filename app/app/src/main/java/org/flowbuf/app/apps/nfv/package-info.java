/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * NFV flow migration (Programmable Buffers, SOSR'18): a buffer holds a flow
 * while its network function's state moves, then releases it into the new
 * instance. Built on the public intent API only.
 */
package org.flowbuf.app.apps.nfv;
