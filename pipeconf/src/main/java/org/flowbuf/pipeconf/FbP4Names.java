/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiRegisterId;
import org.onosproject.net.pi.model.PiTableId;

/**
 * Names of FB buffer admission (include/fb.p4) in the p4info: what a
 * controller writes to run FB on a switch.
 */
public final class FbP4Names {

    // ---- tables ----

    /** (KEY_EGRESS_PORT, KEY_PRIORITY, KEY_DSCP) -> FB_CLASS: which packets FB admits, and their class. */
    public static final PiTableId CLASSES = PiTableId.of("IngressPipeImpl.fb_admission.fb_classes");
    /** Keyless; its default action SET_BUFFER sets B. */
    public static final PiTableId BUFFER = PiTableId.of("IngressPipeImpl.fb_admission.fb_buffer");
    /** (KEY_ALPHA_ID, KEY_CONGESTED range, KEY_ACTIVE range) -> SET_SHIFT. */
    public static final PiTableId SHIFT = PiTableId.of("IngressPipeImpl.fb_admission.fb_shift");

    // ---- match fields ----

    /** The port forwarding chose. */
    public static final PiMatchFieldId KEY_EGRESS_PORT = PiMatchFieldId.of("egress_port");
    /** The queue an earlier block chose (std_meta.priority), ternary. */
    public static final PiMatchFieldId KEY_PRIORITY = PiMatchFieldId.of("priority");
    /** The IPv4 DSCP, ternary. */
    public static final PiMatchFieldId KEY_DSCP = PiMatchFieldId.of("dscp");
    /** The class's alpha, as an id the shift table knows. */
    public static final PiMatchFieldId KEY_ALPHA_ID = PiMatchFieldId.of("alpha_id");
    /** N_p: congested queues of the class's buffer priority, this one included. */
    public static final PiMatchFieldId KEY_CONGESTED = PiMatchFieldId.of("congested");
    /** n: congested queues of the port, this one included. */
    public static final PiMatchFieldId KEY_ACTIVE = PiMatchFieldId.of("active");

    // ---- actions and parameters ----

    /** Admit by FB into QUEUE, with ALPHA_ID and HIGH. */
    public static final PiActionId FB_CLASS = PiActionId.of("IngressPipeImpl.fb_admission.fb_class");
    /** The queue (std_meta.priority). */
    public static final PiActionParamId QUEUE = PiActionParamId.of("queue");
    /** The class's alpha id. */
    public static final PiActionParamId ALPHA_ID = PiActionParamId.of("alpha_id");
    /** 1: the class is of FB's high buffer priority. */
    public static final PiActionParamId HIGH = PiActionParamId.of("high");
    /** B in packets. */
    public static final PiActionId SET_BUFFER = PiActionId.of("IngressPipeImpl.fb_admission.set_buffer");
    /** Packets. */
    public static final PiActionParamId PACKETS = PiActionParamId.of("packets");
    /** threshold = (remaining << LEFT) >> RIGHT. */
    public static final PiActionId SET_SHIFT = PiActionId.of("IngressPipeImpl.fb_admission.set_shift");
    /** Left shift (alpha above 1). */
    public static final PiActionParamId LEFT = PiActionParamId.of("left");
    /** Right shift. */
    public static final PiActionParamId RIGHT = PiActionParamId.of("right");

    // ---- counters and registers ----

    /** Packets FB refused, per queue (port * 8 + priority). */
    public static final PiCounterId DROPS = PiCounterId.of("IngressPipeImpl.fb_admission.fb_drops");
    /** Packets FB counts per queue. */
    public static final PiRegisterId QLEN = PiRegisterId.of("fb_qlen");
    /** Packets in all FB queues. */
    public static final PiRegisterId OCCUPIED = PiRegisterId.of("fb_occupied");
    /** Congested queues per buffer priority. */
    public static final PiRegisterId CONGESTED = PiRegisterId.of("fb_congested");
    /** Congested queues per port. */
    public static final PiRegisterId ACTIVE = PiRegisterId.of("fb_active");

    /** Cells of the per-queue arrays: 2^9 ports x 8 priorities (FB_QUEUE_CELLS). */
    public static final int QUEUE_CELLS = 4096;
    /** Cells of the per-port array (FB_PORT_CELLS). */
    public static final int PORT_CELLS = 512;

    private FbP4Names() {
    }
}
