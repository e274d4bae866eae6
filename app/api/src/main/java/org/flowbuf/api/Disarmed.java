/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link BufferService#disarm} found on the trigger: a move still
 * armed (it will not fire now), or the fire of the move it had armed.
 */
public final class Disarmed {

    private static final Disarmed NOTHING_ARMED = new Disarmed(false, Optional.empty());

    private final boolean wasArmed;
    private final Optional<TriggerFire> fire;

    private Disarmed(boolean wasArmed, Optional<TriggerFire> fire) {
        this.wasArmed = wasArmed;
        this.fire = fire;
    }

    /**
     * The move was still armed; it will not fire now.
     *
     * @return the outcome
     */
    public static Disarmed stillArmed() {
        return new Disarmed(true, Optional.empty());
    }

    /**
     * The armed move had fired.
     *
     * @param fire what the fire did
     * @return the outcome
     */
    public static Disarmed fired(TriggerFire fire) {
        return new Disarmed(false, Optional.of(Objects.requireNonNull(fire, "fire")));
    }

    /**
     * Nothing was armed (or the agent lost what was, with a restart).
     *
     * @return the outcome
     */
    public static Disarmed nothingArmed() {
        return NOTHING_ARMED;
    }

    /**
     * Whether a move was still armed.
     *
     * @return true when the disarm stopped it
     */
    public boolean wasArmed() {
        return wasArmed;
    }

    /**
     * The fire of the move the trigger had armed.
     *
     * @return empty when it had not fired
     */
    public Optional<TriggerFire> fire() {
        return fire;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Disarmed && ((Disarmed) o).wasArmed == wasArmed
                && ((Disarmed) o).fire.equals(fire);
    }

    @Override
    public int hashCode() {
        return Objects.hash(wasArmed, fire);
    }

    @Override
    public String toString() {
        return "Disarmed{wasArmed=" + wasArmed + ", fire=" + fire + "}";
    }
}
