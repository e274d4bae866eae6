# SPDX-License-Identifier: Apache-2.0
"""A short real NFV migration in the lab: 0 lost, 0 reordered, and the held
packets reach the new instance."""
import os

import pytest

from test.lab.servicelab import ensure_built
from test.scenarios import nfv_migration

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")


@pytest.fixture(scope="module", autouse=True)
def binaries():
    ensure_built()


def test_a_migrated_flow_loses_nothing_and_continues_at_the_new_instance():
    run = nfv_migration.migrate_once(transfer=0.3, pps=1500, seconds=3)
    assert run["held"] > 0, run
    assert (run["lost"], run["reordered"], run["duplicates"]) == (0, 0, 0), run
    assert run["per_host"]["h3"] >= run["held"], run
