/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FBA on pbswitch: its admin API as the DT queue control the FBA tuner
 * reads and sets, and the netcfg section that turns it on.
 */
package org.flowbuf.host.fba;
