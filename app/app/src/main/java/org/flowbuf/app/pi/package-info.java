/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Steering rules as ONOS PI flow rules of the FlowBuf P4 program.
 */
package org.flowbuf.app.pi;
