/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The UPF service's core: checks (UpfChecks), translation of the model into
 * the pipeline's UPF entries and meter cells (UpfEntries), the manager, and
 * the writer seam that ONOS (FlowRuleService) and the embedded host
 * (P4Runtime) implement.
 */
package org.flowbuf.app.upf;
