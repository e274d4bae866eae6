/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.history;

import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertEquals;

/**
 * The oldest finished records are forgotten once more than the bound finished.
 */
public class RetentionTest {

    @Test
    public void theOldestBeyondTheBoundAreForgottenInOrder() {
        Retention<Integer> retention = new Retention<>(2);
        assertEquals(List.of(), retention.finished(1));
        assertEquals(List.of(), retention.finished(2));
        assertEquals(List.of(1), retention.finished(3));
        assertEquals(List.of(2), retention.finished(4));
    }

    @Test(expected = IllegalArgumentException.class)
    public void aBoundBelowOneIsRefused() {
        new Retention<>(0);
    }
}
