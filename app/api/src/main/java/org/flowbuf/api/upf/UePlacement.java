/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * Where a UE's downlink runs in the hybrid UPF, and its history there.
 *
 * @param ueAddress      the UE
 * @param path           where its downlink runs now
 * @param moving         whether a move is under way (its packets held until the old path drained)
 * @param rateBps        its downlink rate over the last window on the fast path, bit/s
 *                       (0 on the slow path: the fast path counts only its own sessions)
 * @param promotions     times it was promoted
 * @param demotions      times it was demoted
 * @param lastMoveMicros how long its last move took, from the decision (a digest, an
 *                       eviction, the idle check) to the path taking its packets, µs
 * @param lastActiveMicros how long its last move took to its one P4Runtime Write being
 *                       acknowledged, µs: for a promotion, the session active on the fast
 *                       path (its held packets are released later, at lastMoveMicros, once
 *                       the end marker shows the slow path drained)
 */
public final class UePlacement {

    /** The paths of the hybrid UPF. */
    public enum Path {
        /** The switch's small session table. */
        FAST,
        /** The large session table behind the slow port. */
        SLOW
    }

    private final Ip4Address ueAddress;
    private final Path path;
    private final boolean moving;
    private final long rateBps;
    private final long promotions;
    private final long demotions;
    private final long lastMoveMicros;
    private final long lastActiveMicros;

    /**
     * A UE's placement whose last move was active when it was done (a
     * demotion: its Write is the move).
     *
     * @param ueAddress      the UE
     * @param path           its path
     * @param moving         a move is under way
     * @param rateBps        its rate on the fast path, bit/s
     * @param promotions     promotions so far
     * @param demotions      demotions so far
     * @param lastMoveMicros its last move's duration, µs (0: none yet)
     */
    public UePlacement(Ip4Address ueAddress, Path path, boolean moving, long rateBps,
                       long promotions, long demotions, long lastMoveMicros) {
        this(ueAddress, path, moving, rateBps, promotions, demotions, lastMoveMicros,
             lastMoveMicros);
    }

    /**
     * A UE's placement.
     *
     * @param ueAddress      the UE
     * @param path           its path
     * @param moving         a move is under way
     * @param rateBps        its rate on the fast path, bit/s
     * @param promotions     promotions so far
     * @param demotions      demotions so far
     * @param lastMoveMicros its last move's duration, µs (0: none yet)
     * @param lastActiveMicros its last move's Write acknowledged, µs after the decision
     */
    public UePlacement(Ip4Address ueAddress, Path path, boolean moving, long rateBps,
                       long promotions, long demotions, long lastMoveMicros,
                       long lastActiveMicros) {
        this.ueAddress = Objects.requireNonNull(ueAddress);
        this.path = Objects.requireNonNull(path);
        this.moving = moving;
        this.rateBps = rateBps;
        this.promotions = promotions;
        this.demotions = demotions;
        this.lastMoveMicros = lastMoveMicros;
        this.lastActiveMicros = lastActiveMicros;
    }

    /**
     * The UE.
     *
     * @return address
     */
    public Ip4Address ueAddress() {
        return ueAddress;
    }

    /**
     * Its path.
     *
     * @return path
     */
    public Path path() {
        return path;
    }

    /**
     * Whether a move is under way.
     *
     * @return true while its packets are held
     */
    public boolean moving() {
        return moving;
    }

    /**
     * Its rate on the fast path over the last window.
     *
     * @return bit/s
     */
    public long rateBps() {
        return rateBps;
    }

    /**
     * Promotions so far.
     *
     * @return count
     */
    public long promotions() {
        return promotions;
    }

    /**
     * Demotions so far.
     *
     * @return count
     */
    public long demotions() {
        return demotions;
    }

    /**
     * Its last move's duration.
     *
     * @return µs, 0 before the first
     */
    public long lastMoveMicros() {
        return lastMoveMicros;
    }

    /**
     * How long its last move took to its Write acknowledged (a promotion:
     * the session active on the fast path, before the held packets go).
     *
     * @return µs, 0 before the first
     */
    public long lastActiveMicros() {
        return lastActiveMicros;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UePlacement)) {
            return false;
        }
        UePlacement p = (UePlacement) o;
        return ueAddress.equals(p.ueAddress) && path == p.path && moving == p.moving
                && rateBps == p.rateBps && promotions == p.promotions && demotions == p.demotions
                && lastMoveMicros == p.lastMoveMicros && lastActiveMicros == p.lastActiveMicros;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ueAddress, path, moving, rateBps, promotions, demotions, lastMoveMicros,
                            lastActiveMicros);
    }

    @Override
    public String toString() {
        return ueAddress + " " + path + (moving ? " (moving)" : "") + " " + rateBps + " bit/s, "
                + promotions + " promotions, " + demotions + " demotions";
    }
}
