# SPDX-License-Identifier: Apache-2.0
"""The connectionless scenario's controller CPU figure, on this process's threads."""

import os
import threading
import time

from test.scenarios.connectionless import cpu_ms_since, thread_cpu_ns


def burn(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_thread_that_ends_in_between_does_not_make_the_figure_fall():
    go_on = threading.Event()

    def worker():
        burn(0.2)
        go_on.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    time.sleep(0.05)
    start = thread_cpu_ns(os.getpid())
    go_on.set()
    t.join()
    burn(0.02)
    assert cpu_ms_since(os.getpid(), start) >= 15  # the main thread's 20 ms, the worker's gone


def test_a_thread_busy_across_both_samples_counts():
    stop = threading.Event()

    def worker():
        while not stop.is_set():
            burn(0.01)

    t = threading.Thread(target=worker)
    t.start()
    try:
        start = thread_cpu_ns(os.getpid())
        time.sleep(0.5)
        assert cpu_ms_since(os.getpid(), start) >= 20
    finally:
        stop.set()
        t.join()
