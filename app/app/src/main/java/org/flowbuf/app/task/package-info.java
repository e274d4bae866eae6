/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * FlowBuf task-level Buffer Service: creating buffers and moving them between states.
 */
package org.flowbuf.app.task;
