/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The FlowBuf REST API (JAX-RS on ONOS's AbstractWebResource), served by ONOS
 * under /onos/flowbuf and by the embedded host from the same classes.
 */
package org.flowbuf.app.rest;
