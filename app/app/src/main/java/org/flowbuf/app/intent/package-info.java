/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Intent-level Buffer Service: pause_flow and resume_flow as ordered steps.
 */
package org.flowbuf.app.intent;
