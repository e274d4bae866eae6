/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf's ONOS CLI: buffers, vports, states, pause/resume intents, with
 * completers; tables by default and -j for the REST API's JSON.
 */
package org.flowbuf.cli;
