/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import java.util.Objects;

/**
 * What one fire of a move armed on an agent did ({@link BufferService#armMove}).
 */
public final class TriggerFire {

    /** What a move armed to purge to the trigger packet's receive report found. */
    public enum ReportSync {
        /** No purge was armed. */
        NONE,
        /**
         * The reported packet was held (it and every packet before it were
         * purged; when it came after the report, once it arrived), or it had
         * left the buffer lately (sent or purged), or the sender reported
         * that it had received nothing yet (nothing to purge).
         */
        SYNCED,
        /**
         * The trigger packet carried no report, or one of a packet the buffer
         * neither held nor had let go lately and that did not arrive within
         * the agent's wait: nothing was purged.
         */
        UNSYNCED
    }

    private final boolean moved;
    private final ReportSync reportSync;
    private final long purgedPackets;

    private TriggerFire(boolean moved, ReportSync reportSync, long purgedPackets) {
        this.moved = moved;
        this.reportSync = Objects.requireNonNull(reportSync, "reportSync");
        this.purgedPackets = purgedPackets;
    }

    /**
     * A fire's outcome.
     *
     * @param moved         the buffer was moved (false: its vport, or the
     *                      buffer, was removed after arming; nothing changed)
     * @param reportSync    what the purge to the report found
     * @param purgedPackets packets the purge dropped
     * @return the outcome
     */
    public static TriggerFire of(boolean moved, ReportSync reportSync, long purgedPackets) {
        return new TriggerFire(moved, reportSync, purgedPackets);
    }

    /**
     * Whether the buffer was moved.
     *
     * @return false when the fire changed nothing
     */
    public boolean moved() {
        return moved;
    }

    /**
     * What the purge to the report found.
     *
     * @return NONE when no purge was armed
     */
    public ReportSync reportSync() {
        return reportSync;
    }

    /**
     * Packets the purge to the report dropped.
     *
     * @return 0 or more
     */
    public long purgedPackets() {
        return purgedPackets;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TriggerFire)) {
            return false;
        }
        TriggerFire f = (TriggerFire) o;
        return moved == f.moved && reportSync == f.reportSync && purgedPackets == f.purgedPackets;
    }

    @Override
    public int hashCode() {
        return Objects.hash(moved, reportSync, purgedPackets);
    }

    @Override
    public String toString() {
        return "TriggerFire{moved=" + moved + ", reportSync=" + reportSync + ", purgedPackets="
                + purgedPackets + "}";
    }
}
