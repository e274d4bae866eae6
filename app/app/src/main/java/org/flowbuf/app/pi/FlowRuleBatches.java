/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
import org.onosproject.net.flow.FlowRuleService;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Batches of flow rules applied through the FlowRuleService and waited for:
 * a writer that must know whether the device took them (to take a change
 * back, or to tell its client) cannot fire and forget.
 */
public final class FlowRuleBatches {

    private final FlowRuleService flowRules;
    private final Duration timeout;

    /**
     * Creates the batches' writer.
     *
     * @param flowRules ONOS flow rule service
     * @param timeout   how long to wait for the device to confirm a batch
     */
    public FlowRuleBatches(FlowRuleService flowRules, Duration timeout) {
        this.flowRules = Objects.requireNonNull(flowRules);
        this.timeout = Objects.requireNonNull(timeout);
    }

    /**
     * Adds rules (a rule with the match and priority of one the device has
     * replaces its action) and waits.
     *
     * @param rules the rules, none is a no-op
     * @param what  what they are, for the error
     * @throws FlowBufException UNAVAILABLE when the device refuses or does not confirm
     */
    public void add(Collection<FlowRule> rules, String what) {
        if (!rules.isEmpty()) {
            FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
            rules.forEach(ops::add);
            apply(ops, what);
        }
    }

    /**
     * Modifies rules (ONOS keys a rule by device, table, selector and
     * priority: the same key with a new treatment) and waits.
     *
     * @param rules the rules, none is a no-op
     * @param what  what they are, for the error
     * @throws FlowBufException UNAVAILABLE when the device refuses or does not confirm
     */
    public void modify(Collection<FlowRule> rules, String what) {
        if (!rules.isEmpty()) {
            FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
            rules.forEach(ops::modify);
            apply(ops, what);
        }
    }

    /**
     * Removes rules and waits.
     *
     * @param rules the rules, none is a no-op
     * @param what  what they are, for the error
     * @throws FlowBufException UNAVAILABLE when the device refuses or does not confirm
     */
    public void remove(Collection<FlowRule> rules, String what) {
        if (!rules.isEmpty()) {
            FlowRuleOperations.Builder ops = FlowRuleOperations.builder();
            rules.forEach(ops::remove);
            apply(ops, what);
        }
    }

    /**
     * Removes rules that a refused batch may have added: ONOS does not say
     * which of a failed batch were applied, and removing one that was not
     * is harmless. A failure here is added to the cause.
     *
     * @param inserted the batch's rules
     * @param cause    why they are taken back
     */
    public void takeBack(Collection<FlowRule> inserted, FlowBufException cause) {
        try {
            remove(inserted, "take back " + inserted.size() + " entries");
        } catch (FlowBufException alsoRefused) {
            cause.addSuppressed(alsoRefused);
        }
    }

    private void apply(FlowRuleOperations.Builder ops, String what) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        flowRules.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations operations) {
                done.complete(true);
            }

            @Override
            public void onError(FlowRuleOperations operations) {
                done.complete(false);
            }
        }));
        if (!await(done, what, timeout)) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device refused to " + what);
        }
    }

    /**
     * Waits for a device's answer.
     *
     * @param done    the answer
     * @param what    what was asked, for the error
     * @param timeout how long to wait
     * @param <T>     the answer's type
     * @return the answer
     * @throws FlowBufException UNAVAILABLE when interrupted or past the timeout
     */
    public static <T> T await(CompletableFuture<T> done, String what, Duration timeout) {
        try {
            return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "interrupted while waiting to " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device did not confirm " + what + " within "
                                               + timeout.toMillis() + " ms", e);
        }
    }
}
