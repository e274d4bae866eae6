/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FBA (Apostolaki et al., FB, §5.2): FB's buffer sharing approximated on a
 * switch that only offers Dynamic Thresholds, by a controller that reads
 * the queue lengths every period and gives each queue its own DT alpha =
 * alpha_c * 1/N_p * gamma, gamma inferred from the port's scheduling.
 */
package org.flowbuf.app.apps.fba;
