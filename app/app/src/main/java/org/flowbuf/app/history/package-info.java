/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * How long finished records (withdrawn intents, released uploads, ...) are
 * kept before they are forgotten.
 */
package org.flowbuf.app.history;
