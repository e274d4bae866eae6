/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import com.google.common.base.MoreObjects;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowFilter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.Objects;

/**
 * Where an LMM handoff happens: the UE's downlink, the anchor switch that
 * picks the eNB, the source eNB the UE leaves and the target eNB it joins
 * (ports as connect points, as ONOS's topology would name them).
 */
public final class HandoffPlan {

    /** Where a handoff's in-flight packets wait: FlowBuf or one of the paper's baselines. */
    public enum Buffering {
        /** Buffers on the eNB switches (the default). */
        FLOWBUF,
        /** No buffering: only the anchor switches; what reaches the detached UE is lost. */
        NONE,
        /** Controller buffering: the eNBs punt the downlink, the controller replays it. */
        CONTROLLER
    }

    private final FlowFilter downlink;
    private final ConnectPoint anchorIn;
    private final ConnectPoint anchorToSource;
    private final ConnectPoint anchorToTarget;
    private final ConnectPoint sourceIn;
    private final ConnectPoint sourceX2;
    private final ConnectPoint targetIn;
    private final ConnectPoint targetX2;
    private final ConnectPoint targetUe;
    private final Buffering buffering;

    private HandoffPlan(Builder b) {
        this.buffering = b.buffering;
        this.downlink = Objects.requireNonNull(b.downlink, "downlink");
        this.anchorIn = Objects.requireNonNull(b.anchorIn, "anchorIn");
        this.anchorToSource = Objects.requireNonNull(b.anchorToSource, "anchorToSource");
        this.anchorToTarget = Objects.requireNonNull(b.anchorToTarget, "anchorToTarget");
        this.sourceIn = Objects.requireNonNull(b.sourceIn, "sourceIn");
        this.sourceX2 = Objects.requireNonNull(b.sourceX2, "sourceX2");
        this.targetIn = Objects.requireNonNull(b.targetIn, "targetIn");
        this.targetX2 = Objects.requireNonNull(b.targetX2, "targetX2");
        this.targetUe = Objects.requireNonNull(b.targetUe, "targetUe");
        validate();
    }

    private void validate() {
        UeDownlink.check(downlink);
        sameDevice("anchor", anchorIn, anchorToSource, anchorToTarget);
        sameDevice("source", sourceIn, sourceX2);
        sameDevice("target", targetIn, targetX2, targetUe);
        if (source().equals(target())) {
            throw FlowBufException.invalid("source and target eNB are the same device %s",
                                           source());
        }
        if (anchorToSource.equals(anchorToTarget)) {
            throw FlowBufException.invalid("the anchor reaches source and target through the "
                                                   + "same port %s", anchorToSource);
        }
    }

    private static void sameDevice(String role, ConnectPoint first, ConnectPoint... others) {
        for (ConnectPoint other : others) {
            if (!other.deviceId().equals(first.deviceId())) {
                throw FlowBufException.invalid("the %s ports %s and %s lie on different devices",
                                               role, first, other);
            }
        }
    }

    /**
     * The UE's downlink (no in-port; ipv4Dst is the UE's /32).
     *
     * @return filter
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
     * Anchor port towards the source eNB (the old path).
     *
     * @return connect point
     */
    public ConnectPoint anchorToSource() {
        return anchorToSource;
    }

    /**
     * Anchor port towards the target eNB (the new path).
     *
     * @return connect point
     */
    public ConnectPoint anchorToTarget() {
        return anchorToTarget;
    }

    /**
     * Source eNB port the downlink arrives on from the anchor.
     *
     * @return connect point
     */
    public ConnectPoint sourceIn() {
        return sourceIn;
    }

    /**
     * Source eNB port towards the target eNB (X2).
     *
     * @return connect point
     */
    public ConnectPoint sourceX2() {
        return sourceX2;
    }

    /**
     * Target eNB port the downlink arrives on from the anchor.
     *
     * @return connect point
     */
    public ConnectPoint targetIn() {
        return targetIn;
    }

    /**
     * Target eNB port on which forwarded packets arrive from the source (X2).
     *
     * @return connect point
     */
    public ConnectPoint targetX2() {
        return targetX2;
    }

    /**
     * Target eNB port towards the UE (its radio).
     *
     * @return connect point
     */
    public ConnectPoint targetUe() {
        return targetUe;
    }

    /**
     * Where packets wait while the UE is detached.
     *
     * @return FLOWBUF unless a baseline was asked for
     */
    public Buffering buffering() {
        return buffering;
    }

    /**
     * Whether the handoff uses FlowBuf's buffers.
     *
     * @return true for {@link Buffering#FLOWBUF}
     */
    public boolean buffered() {
        return buffering == Buffering.FLOWBUF;
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
     * The source eNB.
     *
     * @return device
     */
    public DeviceId source() {
        return sourceIn.deviceId();
    }

    /**
     * The target eNB.
     *
     * @return device
     */
    public DeviceId target() {
        return targetIn.deviceId();
    }

    /**
     * A builder.
     *
     * @return builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper(this).add("downlink", downlink)
                .add("anchor", anchor()).add("source", source()).add("target", target())
                .add("buffering", buffering).toString();
    }

    /**
     * Builds a plan; build() validates it.
     */
    public static final class Builder {
        private FlowFilter downlink;
        private ConnectPoint anchorIn;
        private ConnectPoint anchorToSource;
        private ConnectPoint anchorToTarget;
        private ConnectPoint sourceIn;
        private ConnectPoint sourceX2;
        private ConnectPoint targetIn;
        private ConnectPoint targetX2;
        private ConnectPoint targetUe;
        private Buffering buffering = Buffering.FLOWBUF;

        private Builder() {
        }

        /**
         * Asks for buffers (the default) or for the no-buffering baseline.
         *
         * @param useBuffers false for the baseline
         * @return this
         */
        public Builder buffered(boolean useBuffers) {
            return buffering(useBuffers ? Buffering.FLOWBUF : Buffering.NONE);
        }

        /**
         * Sets where packets wait while the UE is detached.
         *
         * @param mode FlowBuf's buffers or one of the paper's baselines
         * @return this
         */
        public Builder buffering(Buffering mode) {
            this.buffering = Objects.requireNonNull(mode);
            return this;
        }

        /**
         * Sets the downlink.
         *
         * @param filter filter
         * @return this
         */
        public Builder downlink(FlowFilter filter) {
            this.downlink = filter;
            return this;
        }

        /**
         * Sets the anchor's ports.
         *
         * @param in       where the downlink arrives
         * @param toSource towards the source eNB
         * @param toTarget towards the target eNB
         * @return this
         */
        public Builder anchor(ConnectPoint in, ConnectPoint toSource, ConnectPoint toTarget) {
            this.anchorIn = in;
            this.anchorToSource = toSource;
            this.anchorToTarget = toTarget;
            return this;
        }

        /**
         * Sets the source eNB's ports.
         *
         * @param in from the anchor
         * @param x2 towards the target eNB
         * @return this
         */
        public Builder source(ConnectPoint in, ConnectPoint x2) {
            this.sourceIn = in;
            this.sourceX2 = x2;
            return this;
        }

        /**
         * Sets the target eNB's ports.
         *
         * @param in from the anchor
         * @param x2 from the source eNB
         * @param ue towards the UE
         * @return this
         */
        public Builder target(ConnectPoint in, ConnectPoint x2, ConnectPoint ue) {
            this.targetIn = in;
            this.targetX2 = x2;
            this.targetUe = ue;
            return this;
        }

        /**
         * Builds and validates the plan.
         *
         * @return plan
         * @throws FlowBufException INVALID with what is wrong
         * @throws NullPointerException when a port is missing
         */
        public HandoffPlan build() {
            return new HandoffPlan(this);
        }
    }
}
