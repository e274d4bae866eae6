/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * ONOS network configuration (netcfg JSON) as the embedded host reads it:
 * the same file ONOS would be given.
 */
package org.flowbuf.host.netcfg;
