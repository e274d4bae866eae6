/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * JSON codecs of the FlowBuf model: one JSON shape for the REST API, the CLI
 * (-j) and the GUI overlay.
 */
package org.flowbuf.api.codec;
