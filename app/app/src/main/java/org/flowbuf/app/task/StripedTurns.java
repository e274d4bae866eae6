/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.task;

import com.google.common.util.concurrent.Striped;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Runs a change holding the turns (striped locks) of several objects at
 * once. Guava's {@link Striped#bulkGet} returns the stripes in their own
 * order, so two changes that share objects never wait for each other in a
 * circle; they are released in the reverse order.
 */
public final class StripedTurns {

    private StripedTurns() {
    }

    /**
     * Runs a change in the turn of one object.
     *
     * @param stripes the turns
     * @param key     the object's key
     * @param change  the change
     * @param <T>     what it returns
     * @return what the change returned
     */
    public static <T> T inTurn(Striped<Lock> stripes, Object key, Supplier<T> change) {
        Lock turn = stripes.get(key);
        turn.lock();
        try {
            return change.get();
        } finally {
            turn.unlock();
        }
    }

    /**
     * Runs a change in the turns of the given keys, taken together.
     *
     * @param stripes the turns
     * @param keys    the objects' keys
     * @param change  the change
     * @param <T>     what it returns
     * @return what the change returned
     */
    public static <T> T inTurns(Striped<Lock> stripes, List<?> keys, Supplier<T> change) {
        List<Lock> turns = new ArrayList<>();
        stripes.bulkGet(keys).forEach(turns::add);
        turns.forEach(Lock::lock);
        try {
            return change.get();
        } finally {
            for (int i = turns.size() - 1; i >= 0; i--) {
                turns.get(i).unlock();
            }
        }
    }
}
