/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The FlowBuf pipeconf: the P4 program's names, its ONOS pipeconf (p4info,
 * bmv2 JSON, CPU port), the interpreter that maps ONOS criteria, treatments
 * and packets onto it, and the pipeliner for flow objectives.
 */
package org.flowbuf.pipeconf;
