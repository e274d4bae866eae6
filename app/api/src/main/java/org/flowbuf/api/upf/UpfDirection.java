/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

/** Which traffic of the UPF a firewall rule applies to. */
public enum UpfDirection {
    /** From the UEs (GTP-U from the gNodeBs). */
    UPLINK,
    /** To the UEs (from the data network). */
    DOWNLINK,
    /** Both. */
    BOTH
}
