/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The embedded host: FlowBuf's Buffer Service core outside ONOS, with a
 * P4Runtime client towards the switches, the netcfg file for configuration
 * and the same REST API. Not a second controller: the core is the app's.
 */
package org.flowbuf.host;
