/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FB in the P4 program (Apostolaki et al., FB, §5.1): what the controller
 * pre-computes for the data plane's admission, the shift table standing in
 * for the floating-point product alpha_c * 1/N_p * 1/n.
 */
package org.flowbuf.app.apps.fb;
