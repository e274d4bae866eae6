/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.fba;

import java.util.Objects;

/**
 * One queue's own DT alpha, as FBA sets it.
 */
public final class QueueAlpha {
    private final long port;
    private final int queue;
    private final double alpha;

    /**
     * A queue's alpha.
     *
     * @param port  switch port
     * @param queue queue index (its class)
     * @param alpha the alpha, greater than 0
     */
    public QueueAlpha(long port, int queue, double alpha) {
        this.port = port;
        this.queue = queue;
        this.alpha = alpha;
    }

    /**
     * The port.
     *
     * @return switch port number
     */
    public long port() {
        return port;
    }

    /**
     * The queue.
     *
     * @return queue index
     */
    public int queue() {
        return queue;
    }

    /**
     * The alpha.
     *
     * @return alpha
     */
    public double alpha() {
        return alpha;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof QueueAlpha)) {
            return false;
        }
        QueueAlpha that = (QueueAlpha) o;
        return port == that.port && queue == that.queue
                && Double.compare(alpha, that.alpha) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(port, queue, alpha);
    }

    @Override
    public String toString() {
        return "port " + port + " queue " + queue + " alpha " + alpha;
    }
}
