/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf stores of the Buffer Service's state.
 */
package org.flowbuf.app.store;
