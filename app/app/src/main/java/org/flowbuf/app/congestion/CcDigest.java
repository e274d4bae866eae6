/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

/**
 * One cc_digest_t: a switch moved a flow to the other slot.
 */
public final class CcDigest {

    private final int index;
    private final int switchId;
    private final int slot;
    private final long queueUs;
    private final long procUs;

    /**
     * Creates a digest.
     *
     * @param index    flow index
     * @param switchId the switch's id (cc_switch)
     * @param slot     the slot the flow takes now
     * @param queueUs  the queuing delay that made it switch
     * @param procUs   the processing delay
     */
    public CcDigest(int index, int switchId, int slot, long queueUs, long procUs) {
        this.index = index;
        this.switchId = switchId;
        this.slot = slot;
        this.queueUs = queueUs;
        this.procUs = procUs;
    }

    /**
     * Flow index.
     *
     * @return index
     */
    public int index() {
        return index;
    }

    /**
     * The switch id it carries.
     *
     * @return id
     */
    public int switchId() {
        return switchId;
    }

    /**
     * The slot the flow takes now.
     *
     * @return 0 or 1
     */
    public int slot() {
        return slot;
    }

    /**
     * Queuing delay.
     *
     * @return microseconds
     */
    public long queueUs() {
        return queueUs;
    }

    /**
     * Processing delay.
     *
     * @return microseconds
     */
    public long procUs() {
        return procUs;
    }

    @Override
    public String toString() {
        return "flow " + index + " to slot " + slot + " at switch " + switchId + " (queue "
                + queueUs + " us, processing " + procUs + " us)";
    }
}
