# SPDX-License-Identifier: Apache-2.0
"""ProcessLab's log directory: removed after a clean run, kept after a
failure (or when asked), so that make test does not fill /tmp."""
import os
import tempfile

import pytest

from test.lab.procs import ProcessLab


class TinyLab(ProcessLab):
    def _start(self):
        self.logs = tempfile.mkdtemp(prefix="flowbuf-procs-test-")
        with open(os.path.join(self.logs, "x.log"), "w") as f:
            f.write("log\n")


def test_a_clean_run_removes_its_logs():
    with TinyLab() as lab:
        assert os.path.isdir(lab.logs)
    assert not os.path.exists(lab.logs)


def test_a_failed_run_keeps_its_logs():
    lab = TinyLab()
    with pytest.raises(RuntimeError):
        with lab:
            raise RuntimeError("the run failed")
    assert os.path.isfile(os.path.join(lab.logs, "x.log"))
    os.remove(os.path.join(lab.logs, "x.log"))
    os.rmdir(lab.logs)


def test_logs_asked_for_are_kept():
    with TinyLab() as lab:
        lab.keep_logs = True
    assert os.path.isdir(lab.logs)
    os.remove(os.path.join(lab.logs, "x.log"))
    os.rmdir(lab.logs)


def test_an_interrupt_during_teardown_still_runs_every_step():
    """A second Ctrl-C while a lab closes: every teardown step still runs
    (the processes and namespaces go), then the interrupt is passed on."""
    ran = []

    def interrupted_step():
        ran.append("interrupted")
        raise KeyboardInterrupt

    lab = TinyLab()
    with pytest.raises(KeyboardInterrupt):
        with lab:
            lab._stack += [lambda: ran.append("first pushed"), interrupted_step,
                           lambda: ran.append("last pushed")]
    assert ran == ["last pushed", "interrupted", "first pushed"]
    os.remove(os.path.join(lab.logs, "x.log"))
    os.rmdir(lab.logs)
