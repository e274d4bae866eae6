/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.southbound;

import org.flowbuf.api.TriggerFire;

import java.util.Optional;

/**
 * An agent's answer to ArmTrigger: whether a trigger was armed before the
 * call, and the newest fire of the buffer's trigger (applied before the
 * agent answered), whichever arm it came from.
 */
public final class TriggerReply {

    private final boolean wasArmed;
    private final Optional<TriggerFire> lastFire;

    /**
     * An answer.
     *
     * @param wasArmed a trigger was armed before the call
     * @param lastFire the trigger's newest fire; empty when it never fired
     */
    public TriggerReply(boolean wasArmed, Optional<TriggerFire> lastFire) {
        this.wasArmed = wasArmed;
        this.lastFire = lastFire;
    }

    /**
     * Whether a trigger was armed before the call.
     *
     * @return false after a fire, or when none was armed
     */
    public boolean wasArmed() {
        return wasArmed;
    }

    /**
     * The trigger's newest fire.
     *
     * @return empty when it never fired
     */
    public Optional<TriggerFire> lastFire() {
        return lastFire;
    }
}
