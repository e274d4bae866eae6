# SPDX-License-Identifier: Apache-2.0
"""The hybrid UPF's placement on the embedded host's page in headless
Chromium, on the hybrid lab (test/upf/hybridlab.py: fast path s1, slow path
s2) under the GUI tests' prefix fbg- and REST port 8191 (P4Runtime
28331-28332, buffer API 28341-28342): a UE that turns heavy is listed
FAST with a promotion and its rate on the fast path, then, silent for the
demotion idle time, SLOW with a demotion; the page shows what
GET upf/placement says. The UE streams (500 datagrams/s) while the page is
read, so that it stays on the fast path longer than the page takes to
refresh on a loaded machine. Screenshot: test/artifacts/gui-placement.png."""
import os

import pytest

from test.gui.test_gui import screenshot, wait
from test.lab.servicelab import ensure_built
from test.upf.hybridlab import HybridLab
from test.upf.test_hybrid_placement import HEAVY, HYBRID, Stream, placement

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")

UE = "10.250.0.21"


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with HybridLab(prefix="fbg-", rest_port=8191, p4rt_base=28331, agent_base=28341,
                   hybrid=HYBRID, heavy_hitters=HEAVY) as lab:
        lab.prepare_upf()
        yield lab


def row(driver, ue):
    """{column class: text} of the UE's placement row, {} without one."""
    from selenium.webdriver.common.by import By
    found = driver.find_elements(By.CSS_SELECTOR, f'#placement tr[data-ue="{ue}"]')
    if not found:
        return {}
    return {td.get_attribute("class"): td.text for td in found[0].find_elements(By.TAG_NAME, "td")}


def bps(text):
    """bit/s of the page's rate text ("2.40 Mbit/s"); 0 for none."""
    units = {"bit/s": 1, "kbit/s": 1e3, "Mbit/s": 1e6, "Gbit/s": 1e9}
    parts = text.split()
    if len(parts) != 2 or parts[1] not in units:
        return 0
    return float(parts[0]) * units[parts[1]]


def test_a_promoted_then_demoted_ue_is_shown_fast_then_slow(lab, browser):
    lab.add_session(UE, 0x21)
    stream = None
    try:
        browser.get(f"http://127.0.0.1:{lab.rest_port}/")
        wait(browser, lambda d: row(d, UE) == {}, "no row for a UE never promoted")
        stream = Stream(lab, UE, pps=500, seconds=15, receive=False)
        shown = wait(browser, lambda d: (lambda r: r if r.get("path") == "FAST" else None)(
            row(d, UE)), "the UE shown on the fast path", timeout=30)
        assert shown["promotions"] == "1" and shown["demotions"] == "0", shown
        assert shown["ue"] == UE and shown["lastmove"].endswith("\u00b5s"), shown
        rest = placement(lab, UE)
        assert (rest["path"], rest["promotions"]) == ("FAST", 1), rest
        # A promoted UE shows the HH rate (100 kbit/s) until its first window
        # is read; then its packets, counted on the fast path: over it.
        wait(browser, lambda d: bps(row(d, UE).get("rate", "")) > HEAVY["rateBps"],
             "the UE's measured rate on the fast path", timeout=20)
        browser.execute_script("document.getElementById('placement').scrollIntoView();")
        screenshot(browser, "placement")
        stream.kill()
        # Silent for demoteIdleMs (1.5 s): back on the slow path.
        demoted = wait(browser, lambda d: (lambda r: r if r.get("path") == "SLOW" else None)(
            row(d, UE)), "the UE shown on the slow path", timeout=20)
        assert (demoted["promotions"], demoted["demotions"]) == ("1", "1"), demoted
        assert placement(lab, UE)["demotions"] == 1
    finally:
        if stream is not None:
            stream.kill()
        lab.rest.delete(f"upf/sessions/{UE}")
