# SPDX-License-Identifier: Apache-2.0
"""Long-running lab processes with readiness on a real signal."""
import os
import shutil
import socket
import subprocess
import time


def wait_for_tcp(host, port, timeout=30.0, proc=None):
    """Waits until a TCP connect to host:port succeeds.

    Fails early, with the process's output, if `proc` exits meanwhile.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode} "
                               f"before listening on {host}:{port}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")


class Process:
    """A child process whose output goes to a log file; stopped on exit."""

    def __init__(self, argv, log_path, env=None):
        self.log_path = log_path
        self._log = open(log_path, "w")
        self.popen = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                      env=env)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self, timeout=10.0):
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._log.close()

    def log_tail(self, lines=30):
        with open(self.log_path) as f:
            return "".join(f.readlines()[-lines:])


class ProcessLab:
    """Base of the labs that run processes: a context manager whose _start()
    (the subclass's) builds the lab, pushing a teardown for every piece on
    self._stack; close() runs them newest first, also after a failed start."""

    logs = None
    # A lab's log directory (self.logs) is removed when the lab closes
    # without an exception, unless FLOWBUF_KEEP_LOGS is set or the caller
    # sets keep_logs (it reports the directory): runs of make test would
    # otherwise leave thousands of them in /tmp.
    keep_logs = bool(os.environ.get("FLOWBUF_KEEP_LOGS"))

    def __enter__(self):
        self._stack = []
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type, *exc):
        self.close()
        if exc_type is None and self.logs and not self.keep_logs:
            shutil.rmtree(self.logs, ignore_errors=True)

    def _start(self):
        raise NotImplementedError

    def _run(self, argv, name, port, timeout=30):
        """Starts a process logging to <logs>/<name>.log and waits for its TCP port."""
        proc = Process(argv, f"{self.logs}/{name}.log")
        self._stack.append(proc.stop)
        try:
            wait_for_tcp("127.0.0.1", port, timeout=timeout, proc=proc.popen)
        except RuntimeError as e:
            raise RuntimeError(f"{e}\n--- {name}.log ---\n{proc.log_tail()}") from None
        return proc

    def close(self):
        # A Ctrl-C (KeyboardInterrupt) in the middle of the teardown must not
        # leave the rest running: finish it, then pass the interrupt on.
        interrupted = None
        while self._stack:
            try:
                self._stack.pop()()
            except KeyboardInterrupt as e:
                interrupted = e
            except Exception:  # noqa: BLE001 - keep tearing down the rest
                pass
        if interrupted is not None:
            raise interrupted


def wait_until(predicate, timeout, step=0.02, what="condition"):
    """Polls predicate every `step` s until it returns a true value (returned);
    TimeoutError naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not reached in {timeout} s")
        time.sleep(step)
