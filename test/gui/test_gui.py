# SPDX-License-Identifier: Apache-2.0
"""The embedded host's page in headless Chromium (Debian chromium and
chromium-driver, driven by Selenium): it loads, shows the lab's device, hosts
and vports, a click on Pause holds the flow in a buffer (BUFFERING in the
table, the host marked paused), Resume releases it; a device shows its UPF
sessions and paused downlinks. Screenshots go to
test/artifacts/gui-*.png. `make test-gui` runs this folder alone
(test_gui_congestion.py: the latency-critical flows on a four-switch lab).
The browser is conftest.py's."""
import os
import pathlib
import subprocess
import time

import pytest

from test.lab.servicelab import ROOT, ServiceLab, ensure_built

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the namespace lab needs root")
ARTIFACTS = ROOT / "test" / "artifacts"


@pytest.fixture(scope="module")
def lab():
    ensure_built()
    with ServiceLab(prefix="fbg-", rest_port=8191, p4rt_port=28291, agent_port=28292) as lab:
        python = str(ROOT / ".venv" / "bin" / "python")
        sender = subprocess.Popen(lab.hosts["h1"].popen_argv(
            [python, "-m", "test.lab.seqflow", "send", "10.0.0.2", "9000", "--pps", "500",
             "--seconds", "120"]), stdout=subprocess.DEVNULL, cwd=ROOT)
        yield lab
        sender.kill()


def wait(driver, condition, what, timeout=15, poll=0.5):
    """Waits for condition; the page re-renders twice a second, so an element
    found a moment ago may be gone: conditions find what they need each time."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=poll,
                         ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: condition(d), message=what)


def click(driver, selector, what):
    from selenium.webdriver.common.by import By

    def attempt(d):
        buttons = d.find_elements(By.CSS_SELECTOR, selector)
        if not buttons:
            return False
        buttons[0].click()
        return True
    wait(driver, attempt, what)


def screenshot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"gui-{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 1000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def test_the_page_shows_the_lab_and_pauses_and_resumes_a_flow(lab, browser):
    from selenium.webdriver.common.by import By
    browser.get(f"http://127.0.0.1:{lab.rest_port}/")  # the root redirects to the page
    wait(browser, lambda d: "device:s1" in d.find_element(By.ID, "topology").text,
         "the device is drawn")
    topology = browser.find_element(By.ID, "topology").text
    assert all(name in topology for name in ("h1", "h2", "h3", "vp100", "vp101")), topology
    assert browser.find_elements(By.CSS_SELECTOR, "#buffers tbody tr") == []
    screenshot(browser, "loaded")

    browser.find_element(By.ID, "pause-button").click()  # h1 is the default host
    row_text = wait(browser, lambda d: d.find_element(
        By.CSS_SELECTOR, "#buffers tr.flowbuf-state-buffering").text,
        "a buffer holds the paused flow")
    assert "device:s1" in row_text
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'g.host.paused[data-host="h1"]'),
         "h1 is marked paused")
    wait(browser, lambda d: int(d.find_element(By.CSS_SELECTOR,
                                               "#buffers tr.flowbuf-state-buffering td:nth-child(5)")
                                .text) > 0, "packets are held")
    screenshot(browser, "paused")

    click(browser, "#buffers tr.flowbuf-state-buffering button.flowbuf-resume", "resume")
    alert = browser.switch_to.alert
    alert.send_keys("2")
    alert.accept()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                            "#buffers tr.flowbuf-state-forwarding"),
         "the buffer forwards after the resume")
    assert not browser.find_elements(By.CSS_SELECTOR, 'g.host.paused')
    screenshot(browser, "resumed")
    intents = browser.find_element(By.ID, "intents").text
    assert "PAUSE" in intents and "RESUME" in intents


def test_a_refused_pause_shows_the_error(lab, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    browser.get(f"http://127.0.0.1:{lab.rest_port}/ui/")
    wait(browser, lambda d: "device:s1" in d.find_element(By.ID, "topology").text, "loaded")
    Select(browser.find_element(By.ID, "pause-host")).select_by_index(2)
    browser.find_element(By.ID, "pause-proto").send_keys("300")
    buffers_before = len(browser.find_elements(By.CSS_SELECTOR, "#buffers tbody tr"))
    browser.find_element(By.ID, "pause-button").click()
    wait(browser, lambda d: d.find_element(By.ID, "status").get_attribute("class") == "error",
         "the error is shown")
    assert "ipProto" in browser.find_element(By.ID, "status").text
    time.sleep(1.5)  # three refreshes of the page: the refusal must still be on screen
    assert browser.find_element(By.ID, "status").get_attribute("class") == "error"
    assert "ipProto" in browser.find_element(By.ID, "status").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#buffers tbody tr")) == buffers_before, \
        "a refused pause creates no buffer"



def test_the_device_shows_its_upf_sessions_and_paused_downlinks(lab, browser):
    from selenium.webdriver.common.by import By
    ue = "10.250.0.1"
    upf_line = (lambda d: " ".join(e.text for e in d.find_elements(By.CSS_SELECTOR,
                                                                    "#topology text.upf")))
    lab.rest.post("upf/interfaces", {"deviceId": "device:s1", "kind": "ACCESS",
                                     "prefix": "10.0.0.100/32"})
    lab.rest.post("upf/interfaces", {"deviceId": "device:s1", "kind": "CORE",
                                     "prefix": "10.250.0.0/16"})
    session = lab.rest.post("upf/sessions", {
        "deviceId": "device:s1", "ueAddress": ue, "n3Address": "10.0.0.100",
        "uplinkTeid": 1, "gnbAddress": "10.0.0.1", "downlinkTeid": 2})
    paused = None
    try:
        browser.get(f"http://127.0.0.1:{lab.rest_port}/")
        wait(browser, lambda d: upf_line(d) == "UPF: 1 session, 0 paused", "the session counted")
        paused = lab.rest.post(f"upf/sessions/{ue}/pause", {"inPort": 2})
        wait(browser, lambda d: upf_line(d) == "UPF: 1 session, 1 paused",
             "the paused downlink counted")
        screenshot(browser, "upf")
        lab.rest.post(f"upf/sessions/{session['id']}/resume", {})
        wait(browser, lambda d: upf_line(d) == "UPF: 1 session, 0 paused",
             "the resumed downlink no longer counted")
    finally:
        if paused is not None:
            lab.rest.delete(f"intents/{paused['id']}?owner=org.flowbuf.upf")
        lab.rest.delete(f"upf/sessions/{session['id']}")
    wait(browser, lambda d: upf_line(d) == "", "no UPF line without sessions")
