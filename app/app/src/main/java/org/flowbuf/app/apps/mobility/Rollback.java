/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowBufException;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Undo steps of a multi-step change, run newest first when a later step
 * fails. An undo that fails does not stop the others.
 */
final class Rollback {

    private final Deque<Runnable> undos = new ArrayDeque<>();

    void add(Runnable undo) {
        undos.push(undo);
    }

    void run() {
        while (!undos.isEmpty()) {
            try {
                undos.pop().run();
            } catch (FlowBufException e) {
                // Keep undoing: the caller reports the failure that started this.
                continue;
            }
        }
    }
}
