// SPDX-License-Identifier: Apache-2.0

package engine

// SyncWaitBound is syncWaitBound, for the tests of package engine_test.
const SyncWaitBound = syncWaitBound

// Crash leaves e as a kill -9 would: its state directory untouched.
func Crash(e *Engine) { e.abandon() }
