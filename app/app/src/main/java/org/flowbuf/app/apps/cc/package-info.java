/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Connectionless communication (Programmable Buffers, SOSR'18): sensors
 * upload into switch buffers, collectors download later. Built on the
 * public task- and intent-level APIs only.
 */
package org.flowbuf.app.apps.cc;
