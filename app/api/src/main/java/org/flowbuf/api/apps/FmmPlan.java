/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableList;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where an FMM session runs: the UE's downlink, the anchor switch that
 * multicasts it, the eNBs (cells) that receive a copy, and the eNB that
 * serves the UE now. Each eNB holds the copies it does not deliver in a
 * drop-head window of the newest windowPackets packets.
 */
public final class FmmPlan {

    /** Window of each eNB buffer unless the plan names one. */
    public static final int DEFAULT_WINDOW_PACKETS = 4096;
    /** Largest window an eNB buffer may keep. */
    public static final int MAX_WINDOW_PACKETS = 1 << 20;

    private final FlowFilter downlink;
    private final ConnectPoint anchorIn;
    private final List<Cell> cells;
    private final DeviceId serving;
    private final int windowPackets;
    private final Optional<FlowFilter> attachSignal;
    private final boolean ueReports;

    /**
     * Creates and validates a plan.
     *
     * @param downlink      the UE's downlink (ipv4Dst the UE's /32, no in-port)
     * @param anchorIn      anchor port the downlink arrives on
     * @param cells         the eNBs that receive a copy (at least two)
     * @param serving       the eNB the UE is attached to now (one of the cells)
     * @param windowPackets packets each non-serving eNB keeps (1 to
     *                      {@link #MAX_WINDOW_PACKETS})
     * @throws FlowBufException INVALID with what is wrong
     */
    public FmmPlan(FlowFilter downlink, ConnectPoint anchorIn, List<Cell> cells,
                   DeviceId serving, int windowPackets) {
        this(downlink, anchorIn, cells, serving, windowPackets, Optional.empty());
    }

    /**
     * Creates and validates a plan whose eNBs release on the UE's attach
     * signal: the first uplink packet matching it on an eNB's UE port
     * fires that eNB's release on its agent, with no controller round trip
     * (the attach call still releases when the signal is late or lost).
     *
     * @param downlink      the UE's downlink (ipv4Dst the UE's /32, no in-port)
     * @param anchorIn      anchor port the downlink arrives on
     * @param cells         the eNBs that receive a copy (at least two)
     * @param serving       the eNB the UE is attached to now (one of the cells)
     * @param windowPackets packets each non-serving eNB keeps
     * @param attachSignal  the UE's attach packet (ipProto and l4DstPort
     *                      named, so that only it, not the UE's uplink,
     *                      goes to the trigger; no in-port), if any
     * @throws FlowBufException INVALID with what is wrong
     */
    public FmmPlan(FlowFilter downlink, ConnectPoint anchorIn, List<Cell> cells,
                   DeviceId serving, int windowPackets, Optional<FlowFilter> attachSignal) {
        this(downlink, anchorIn, cells, serving, windowPackets, attachSignal, false);
    }

    /**
     * Creates and validates a plan whose UE drives its handoffs: with
     * {@code ueReports}, the UE sends its signal on the radio it leaves
     * too (that eNB's agent holds its window there and then, so the source
     * delivers until the UE is gone), and every signal carries a receive
     * report, the newest downlink packet the UE got (the target's agent
     * drops what its window holds up to it, then releases the rest: the
     * sync needs no controller either).
     *
     * @param downlink      the UE's downlink (ipv4Dst the UE's /32, no in-port)
     * @param anchorIn      anchor port the downlink arrives on
     * @param cells         the eNBs that receive a copy (at least two)
     * @param serving       the eNB the UE is attached to now (one of the cells)
     * @param windowPackets packets each non-serving eNB keeps
     * @param attachSignal  the UE's signal (see the constructor above)
     * @param ueReports     the UE signals its detach too, and reports what
     *                      it received (needs an attach signal)
     * @throws FlowBufException INVALID with what is wrong
     */
    public FmmPlan(FlowFilter downlink, ConnectPoint anchorIn, List<Cell> cells,
                   DeviceId serving, int windowPackets, Optional<FlowFilter> attachSignal,
                   boolean ueReports) {
        this.attachSignal = Objects.requireNonNull(attachSignal, "attachSignal");
        this.ueReports = ueReports;
        this.downlink = Objects.requireNonNull(downlink, "downlink");
        this.anchorIn = Objects.requireNonNull(anchorIn, "anchorIn");
        this.cells = ImmutableList.copyOf(Objects.requireNonNull(cells, "cells"));
        this.serving = Objects.requireNonNull(serving, "serving");
        this.windowPackets = windowPackets;
        validate();
    }

    private void validate() {
        UeDownlink.check(downlink);
        attachSignal.ifPresent(FmmPlan::checkAttachSignal);
        if (ueReports && attachSignal.isEmpty()) {
            throw FlowBufException.invalid("ueReports needs an attachSignal: the UE's reports "
                                                   + "travel in it");
        }
        if (cells.size() < 2) {
            throw FlowBufException.invalid("FMM needs at least two cells, got %d", cells.size());
        }
        if (windowPackets < 1 || windowPackets > MAX_WINDOW_PACKETS) {
            throw FlowBufException.invalid("windowPackets must be 1 to %d, got %d",
                                           MAX_WINDOW_PACKETS, windowPackets);
        }
        Set<DeviceId> enbs = new HashSet<>();
        Set<ConnectPoint> anchorPorts = new HashSet<>();
        for (Cell cell : cells) {
            if (!cell.anchorPort().deviceId().equals(anchorIn.deviceId())) {
                throw FlowBufException.invalid("cell %s: anchor port %s is not on the anchor %s",
                                               cell.enb(), cell.anchorPort(), anchor());
            }
            if (cell.anchorPort().equals(anchorIn)) {
                throw FlowBufException.invalid("cell %s: the anchor cannot send the downlink "
                                                       + "back out of its in-port %s",
                                               cell.enb(), anchorIn);
            }
            if (cell.enb().equals(anchor())) {
                throw FlowBufException.invalid("the anchor %s cannot be a cell", anchor());
            }
            if (!enbs.add(cell.enb())) {
                throw FlowBufException.invalid("eNB %s is named by two cells", cell.enb());
            }
            if (!anchorPorts.add(cell.anchorPort())) {
                throw FlowBufException.invalid("anchor port %s leads to two cells",
                                               cell.anchorPort());
            }
        }
        if (!enbs.contains(serving)) {
            throw FlowBufException.invalid("the serving eNB %s is not one of the cells", serving);
        }
    }

    private static void checkAttachSignal(FlowFilter signal) {
        if (signal.inPort().isPresent()) {
            throw FlowBufException.invalid("the attachSignal filter must not name an in-port "
                                                   + "(each cell's UE port is used)");
        }
        if (signal.ipProto().isEmpty() || signal.l4DstPort().isEmpty()) {
            throw FlowBufException.invalid("the attachSignal filter needs ipProto and l4DstPort, "
                                                   + "so that the UE's other uplink is not taken");
        }
    }

    /**
     * The UE's downlink.
     *
     * @return filter (ipv4Dst the UE's /32)
     */
    public FlowFilter downlink() {
        return downlink;
    }

    /**
     * Anchor port the downlink arrives on.
     *
     * @return connect point
     */
    public ConnectPoint anchorIn() {
        return anchorIn;
    }

    /**
     * The anchor switch.
     *
     * @return device
     */
    public DeviceId anchor() {
        return anchorIn.deviceId();
    }

    /**
     * The eNBs that receive a copy, in the plan's order.
     *
     * @return cells
     */
    public List<Cell> cells() {
        return cells;
    }

    /**
     * The cell of an eNB.
     *
     * @param enb eNB device
     * @return its cell, if the plan has it
     */
    public Optional<Cell> cell(DeviceId enb) {
        return cells.stream().filter(c -> c.enb().equals(enb)).findFirst();
    }

    /**
     * The eNB serving the UE when the session opens.
     *
     * @return device
     */
    public DeviceId serving() {
        return serving;
    }

    /**
     * Packets each eNB buffer keeps while it does not serve (drop-head).
     *
     * @return window size
     */
    public int windowPackets() {
        return windowPackets;
    }

    /**
     * The UE's attach packet, whose arrival at a target eNB releases it.
     *
     * @return filter, empty when the attach call releases
     */
    public Optional<FlowFilter> attachSignal() {
        return attachSignal;
    }

    /**
     * Whether the UE signals its detach too and reports what it received.
     *
     * @return true when the agents hold, sync and release without the controller
     */
    public boolean ueReports() {
        return ueReports;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FmmPlan)) {
            return false;
        }
        FmmPlan p = (FmmPlan) o;
        return downlink.equals(p.downlink) && anchorIn.equals(p.anchorIn)
                && cells.equals(p.cells) && serving.equals(p.serving)
                && windowPackets == p.windowPackets && attachSignal.equals(p.attachSignal)
                && ueReports == p.ueReports;
    }

    @Override
    public int hashCode() {
        return Objects.hash(downlink, anchorIn, cells, serving, windowPackets, attachSignal,
                            ueReports);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("downlink", downlink)
                .add("anchorIn", anchorIn).add("cells", cells).add("serving", serving)
                .add("windowPackets", windowPackets).add("attachSignal", attachSignal)
                .add("ueReports", ueReports).toString();
    }

    /**
     * One eNB of the plan: the anchor port towards it, the port the copies
     * arrive on, and its port towards the UE (its radio).
     */
    public static final class Cell {
        private final ConnectPoint anchorPort;
        private final ConnectPoint in;
        private final ConnectPoint ue;

        /**
         * Creates a cell.
         *
         * @param anchorPort anchor port towards this eNB
         * @param in         eNB port the copies arrive on
         * @param ue         eNB port towards the UE
         * @throws FlowBufException INVALID when in and ue lie on different devices
         */
        public Cell(ConnectPoint anchorPort, ConnectPoint in, ConnectPoint ue) {
            this.anchorPort = Objects.requireNonNull(anchorPort, "anchorPort");
            this.in = Objects.requireNonNull(in, "in");
            this.ue = Objects.requireNonNull(ue, "ue");
            if (!in.deviceId().equals(ue.deviceId())) {
                throw FlowBufException.invalid("cell ports %s and %s lie on different devices",
                                               in, ue);
            }
            if (in.equals(ue)) {
                throw FlowBufException.invalid("cell %s: in and ue are the same port",
                                               in.deviceId());
            }
        }

        /**
         * Anchor port towards this eNB.
         *
         * @return connect point
         */
        public ConnectPoint anchorPort() {
            return anchorPort;
        }

        /**
         * eNB port the multicast copies arrive on.
         *
         * @return connect point
         */
        public ConnectPoint in() {
            return in;
        }

        /**
         * eNB port towards the UE.
         *
         * @return connect point
         */
        public ConnectPoint ue() {
            return ue;
        }

        /**
         * The eNB.
         *
         * @return device
         */
        public DeviceId enb() {
            return in.deviceId();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Cell)) {
                return false;
            }
            Cell c = (Cell) o;
            return anchorPort.equals(c.anchorPort) && in.equals(c.in) && ue.equals(c.ue);
        }

        @Override
        public int hashCode() {
            return Objects.hash(anchorPort, in, ue);
        }

        @Override
        public String toString() {
            return MoreObjects.toStringHelper(this).add("anchorPort", anchorPort).add("in", in)
                    .add("ue", ue).toString();
        }
    }
}
