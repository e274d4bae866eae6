/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * Which egress queue a QoS flow's packets take on a UPF device: QFI → the
 * switch's strict-priority queue (std_meta.priority; 7 is served first).
 * Packets of a QFI without one take the default queue. BMv2 drops a packet
 * whose queue it does not run (see the README on --priority-queues).
 */
public final class UpfQueue {

    /** The highest queue (std_meta.priority is 3 bits). */
    public static final int MAX_QUEUE = 7;

    private final DeviceId deviceId;
    private final int qfi;
    private final int queue;

    /**
     * A mapping.
     *
     * @param deviceId device
     * @param qfi      0-63
     * @param queue    0-7
     * @throws FlowBufException INVALID when a value is out of range
     */
    public UpfQueue(DeviceId deviceId, long qfi, long queue) {
        this.deviceId = Objects.requireNonNull(deviceId);
        this.qfi = PduSession.checkQfi(qfi);
        if (queue < 0 || queue > MAX_QUEUE) {
            throw FlowBufException.invalid("queue must be between 0 and %d, got %d", MAX_QUEUE, queue);
        }
        this.queue = (int) queue;
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The QoS flow identifier.
     *
     * @return 0-63
     */
    public int qfi() {
        return qfi;
    }

    /**
     * The egress queue.
     *
     * @return 0-7
     */
    public int queue() {
        return queue;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UpfQueue && deviceId.equals(((UpfQueue) o).deviceId)
                && qfi == ((UpfQueue) o).qfi && queue == ((UpfQueue) o).queue;
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, qfi, queue);
    }

    @Override
    public String toString() {
        return "qfi " + qfi + " -> queue " + queue + " on " + deviceId;
    }
}
