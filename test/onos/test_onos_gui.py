# SPDX-License-Identifier: Apache-2.0
"""FlowBuf's topology overlay in ONOS's legacy GUI, live, in headless
Chromium (`make test-onos`; the browser is test/gui's).

ONOS's form login (onos/rocks), the topology view, FlowBuf's overlay picked
from the view's toolbar, a paused flow's source host wearing the overlay's
"paused" badge, and the switch's details panel listing its buffers with the
overlay's pause and resume buttons. Screenshots: test/artifacts/gui-onos-*.png.
Skips with one line when ONOS's GUI has no page here (a runtime whose
onos-web-gui bundle lacks the GUI's npm-built web assets).
"""
import os
import re
import urllib.error

import pytest

from test.demo import service_demo
from test.gui.conftest import browser  # noqa: F401 (the fixture: the same headless Chromium)
from test.gui.test_gui import ARTIFACTS, screenshot, wait
from test.lab.servicelab import DEVICE, HOSTS, ROOT, ensure_built, mac_of
from test.onos.onos import HTTP_PORT, PASSWORD, USER, missing
from test.onos.onos import wait as wait_for

REASON = missing()
if REASON:
    pytest.skip(REASON, allow_module_level=True)

from test.onos.test_onos_congestion import HOSTS_APP, activate_provider  # noqa: E402
from test.onos.test_onos_live import GUI_APP, OnosSwitchLab, device  # noqa: E402

GUI = f"http://127.0.0.1:{HTTP_PORT}/onos/ui"
# What index.html loads besides ONOS's views: without them no page renders.
GUI_ASSETS = ("dist/onos.js", "dist/onos.css", "vendor/angular/angular.min.js",
              "vendor/d3/d3.min.js")
OVERLAY_TOOLTIP = "FlowBuf: buffers, paused flows, latency-critical paths"
PAUSED_HOST = "h1"


def unserved(onos, paths):
    """The paths of ONOS's GUI that it does not serve."""
    absent = []
    for path in paths:
        try:
            onos.gui_get(path)
        except urllib.error.HTTPError as e:
            if e.code != 404:
                raise
            absent.append(path)
    return absent


def index_served(onos):
    try:
        return "<title>ONOS</title>" in onos.gui_get("index.html")
    except (urllib.error.URLError, ConnectionError):
        return False


@pytest.fixture(scope="module")
def gui(onos, flowbuf):
    """ONOS's legacy GUI active with its web assets, or a one-line skip."""
    if onos.applications().get(GUI_APP, {}).get("state") != "ACTIVE":
        pytest.skip(f"ONOS's legacy GUI ({GUI_APP}) is not active here")
    # ONOS marks the app ACTIVE before Karaf has installed its bundle; under
    # load the page came a minute later (answers were 401 until then).
    wait_for(lambda: index_served(onos), 180, "ONOS's GUI index page after its login")
    absent = unserved(onos, GUI_ASSETS)
    if absent:
        pytest.skip(f"ONOS's legacy GUI has no page here: it serves no {', '.join(absent)} "
                    f"(its npm-built web assets; ONOS's release tarball has them)")
    return GUI


@pytest.fixture(scope="module")
def lab(onos, flowbuf, gui):
    """pbswitch under ONOS with the lab's hosts known to ONOS (netcfg hosts)."""
    if os.geteuid() != 0:
        pytest.skip("the namespace lab needs root")
    activate_provider(onos, HOSTS_APP)
    ensure_built()
    with OnosSwitchLab(onos) as switch_lab:
        onos.push_netcfg(switch_lab.netcfg())
        wait_for(lambda: device(onos).get("available"), 240, f"{DEVICE} available in ONOS")
        host_id = f"{mac_of(PAUSED_HOST).upper()}/None"  # ONOS writes MACs in capitals
        wait_for(lambda: any(h["id"] == host_id for h in onos.rest.get("hosts")["hosts"]), 60,
                 f"{PAUSED_HOST} known to ONOS")
        yield switch_lab


def log_in(driver):
    """ONOS's form login, as a user types it."""
    from selenium.webdriver.common.by import By
    driver.get(f"{GUI}/index.html")
    wait(driver, lambda d: d.find_elements(By.ID, "username"), "ONOS's login form", timeout=30)
    driver.find_element(By.ID, "username").send_keys(USER)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.ID, "submit").click()
    wait(driver, lambda d: not d.find_elements(By.ID, "username"), "logged in", timeout=30)


def node(driver, node_id):
    """The topology view's SVG group of a device or host (its id is ONOS's)."""
    from selenium.webdriver.common.by import By
    # The view writes ONOS's id through sus.safeId: each character not a
    # letter or a digit becomes '-' (device:s1 is device-s1), seen live.
    safe = re.sub(r"[^A-Za-z0-9]", "-", node_id)
    found = driver.find_elements(By.CSS_SELECTOR, f'#ov-topo g.node[id="{safe}"]')
    return found[0] if found else None


def show_hosts(driver, host_id):
    """The view hides hosts until its H key shows them (its default)."""
    from selenium.webdriver.common.by import By
    wait(driver, lambda d: node(d, host_id) is not None, "the host drawn", timeout=30)
    # Hidden hosts are drawn with visibility: hidden (seen live).
    if not node(driver, host_id).is_displayed():
        driver.find_element(By.TAG_NAME, "body").send_keys("h")
    wait(driver, lambda d: node(d, host_id).is_displayed(), "the host shown")


def select_overlay(driver, tooltip):
    """Opens the view's toolbar (its arrow) and presses the overlay's radio
    button: the one whose tooltip, shown on hover, is the overlay's."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    radios = "#toolbar-topo-tbar .radioSet > div"

    def shown(d):
        return [b for b in d.find_elements(By.CSS_SELECTOR, radios) if b.is_displayed()]
    if not shown(driver):
        driver.find_element(By.CSS_SELECTOR, "#toolbar-topo-tbar .tbar-arrow").click()
    for button in wait(driver, shown, "the toolbar's overlay buttons"):
        ActionChains(driver).move_to_element(button).perform()
        try:
            wait(driver, lambda d: tooltip in d.find_element(By.ID, "tooltip").text,
                 "tooltip", timeout=2, poll=0.2)
        except TimeoutException:
            continue
        button.click()
        wait(driver, lambda d: "selected" in button.get_attribute("class"), "overlay selected")
        return button
    raise AssertionError(f"no overlay button with the tooltip {tooltip!r} in the toolbar")


def assert_icon_drawn(driver, button):
    """A button's icon is a <use> of a glyph <symbol> the page defines: a
    glyph id ONOS's library lacks draws nothing (the overlay's Pause and
    Resume buttons named two such ids until 2026-11-29)."""
    href = driver.execute_script(
        "var u = arguments[0].querySelector('use');"
        "return u && u.getAttributeNS('http://www.w3.org/1999/xlink', 'href');", button)
    assert href and href.startswith("#"), (button.get_attribute("id"), href)
    assert driver.execute_script("return !!document.querySelector('symbol[id=\"' + "
                                 "arguments[0] + '\"]');", href[1:]), \
        f"{button.get_attribute('id')}: glyph {href} is not defined in the page"


def keep_failure(driver):
    """The page as the failing step saw it, and the browser's console."""
    screenshot(driver, "onos-failure")
    (ARTIFACTS / "gui-onos-failure.html").write_text(driver.page_source)
    try:
        print("\n".join(str(e) for e in driver.get_log("browser")))
    except Exception:  # a driver without logs
        pass


def test_the_overlay_shows_a_paused_host_and_the_switchs_buffers_in_onos_gui(lab, browser):
    from selenium.webdriver.common.by import By
    pause = lab.rest.post("intents/pause", {"deviceId": DEVICE, "inPort": HOSTS[PAUSED_HOST],
                                            "filter": service_demo.flow_filter()})
    host_id = f"{mac_of(PAUSED_HOST).upper()}/None"  # ONOS writes MACs in capitals
    try:
        log_in(browser)
        browser.get(f"{GUI}/index.html#/topo")
        wait(browser, lambda d: node(d, DEVICE) is not None, "the switch drawn", timeout=60)
        show_hosts(browser, host_id)
        screenshot(browser, "onos-topology")

        select_overlay(browser, OVERLAY_TOOLTIP)
        badge = wait(browser, lambda d: node(d, host_id).find_elements(
            By.CSS_SELECTOR, "g.badge.badgeWarn text"), "the paused host's badge", timeout=30)
        assert badge[0].text == "II"
        device_badge = wait(browser, lambda d: node(d, DEVICE).find_elements(
            By.CSS_SELECTOR, "g.badge text"), "the switch's buffers badge")
        assert int(device_badge[0].text) >= 1
        screenshot(browser, "onos-overlay-paused")

        node(browser, DEVICE).click()
        panel = wait(browser, lambda d: d.find_element(By.ID, "topo-p-detail")
                     if "FlowBuf buffers" in d.find_element(By.ID, "topo-p-detail").text
                     else None, "the switch's details panel with its buffers")
        assert f"{pause['bufferId']}" in panel.text and "BUFFERING" in panel.text, panel.text
        for button in ("flowbufPause", "flowbufResume"):
            found = panel.find_elements(By.CSS_SELECTOR, f'[id$="{button}"]')
            assert found, (button, panel.text)
            assert_icon_drawn(browser, found[0])
        screenshot(browser, "onos-device-panel")
    except Exception:
        keep_failure(browser)
        raise
    finally:
        # A buffer holding packets of an installed pause is refused removal
        # ("resume it first", seen live): resumed, then both intents withdrawn.
        resume = lab.rest.post("intents/resume", {"deviceId": DEVICE, "outPort": HOSTS["h2"],
                                                  "filter": service_demo.flow_filter()})
        for intent in (pause, resume):
            lab.rest.delete(f"intents/{intent['id']}")
        lab.rest.delete(f"buffers/{DEVICE}/{pause['bufferId']}?discard=true")


# The page that loads ONOS's GUI framework from its onos-web-gui bundle, then
# the overlay's scripts, as index.html orders them, and bootstraps the modules
# the overlay uses (no ONOS server: onosUser/onosAuth are what index.html
# injects for a logged-in user).
FRAMEWORK_PAGE = """<html><head>
%s
<script>var onosUser = 'onos', onosAuth = 'token', onosPrefs = {};</script>
<script src="onos.js"></script>
<script src="dist/onos.js"></script>
<script src="app/view/flowbufTopo/flowbufModel.js"></script>
<script src="app/view/flowbufTopo/flowbufTopo.js"></script>
</head><body><div id="app"></div><script>
var injector = angular.bootstrap(document.getElementById('app'), ['ngRoute', 'ngCookies',
    'onosUtil', 'onosSvg', 'onosWidget', 'onosRemote', 'onosLayer', 'onosNav', 'onosMast',
    'ovTopo', 'ovFlowbufTopo']);
var glyphs = injector.get('GlyphService');
injector.get('GlyphDataService').registerCoreGlyphs(glyphs);
window.overlays = injector.get('TopoOverlayService').list();
window.hasGlyph = function (id) { return !!glyphs.glyph(id); };
</script></body></html>
"""
VENDOR_SCRIPTS = ("angular/angular.min.js", "angular-route/angular-route.min.js",
                  "angular-cookies/angular-cookies.min.js", "d3/d3.min.js",
                  "topojson/topojson.js", "Chart.js/dist/Chart.min.js",
                  "angular-chart.js/dist/angular-chart.min.js", "lodash/index.js")


class QuietHandler(__import__("http.server").server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def gui_bundle():
    from test.onos.onos import onos_root
    found = sorted(onos_root().glob(
        "apache-karaf-*/system/org/onosproject/onos-web-gui/*/onos-web-gui-*.jar"))
    return found[-1] if found else None


def test_the_overlays_glyphs_are_ones_onos_gui_defines(browser, tmp_path):  # noqa: F811
    """The overlay in ONOS's own GUI framework (its bundle's scripts, no
    server): it registers beside ONOS's overlays, and every glyph its
    toolbar button, key and details-panel buttons name exists there (two did
    not: the Pause and Resume buttons were drawn blank)."""
    import functools
    import http.server
    import threading
    import zipfile
    jar = gui_bundle()
    if jar is None:
        pytest.skip("no onos-web-gui bundle in this ONOS runtime")
    with zipfile.ZipFile(jar) as z:
        names = set(z.namelist())
        if "dist/onos.js" not in names:
            pytest.skip(f"ONOS's legacy GUI has no page here: {jar.name} has no dist/onos.js")
        for name in names:
            if name.startswith(("dist/", "vendor/")) and not name.endswith("/"):
                z.extract(name, tmp_path)
        template = "onos.js" if "onos.js" in names else "WEB-INF/classes/onos.js"
        (tmp_path / "onos.js").write_bytes(z.read(template))
    overlay_js = ROOT / "web-gui" / "src" / "main" / "resources" / "app" / "view" / "flowbufTopo"
    (tmp_path / "app" / "view").mkdir(parents=True)
    (tmp_path / "app" / "view" / "flowbufTopo").symlink_to(overlay_js)
    (tmp_path / "page.html").write_text(FRAMEWORK_PAGE % "\n".join(
        f'<script src="vendor/{s}"></script>' for s in VENDOR_SCRIPTS))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/page.html")
        overlays = wait(browser, lambda d: d.execute_script("return window.overlays"),
                        "ONOS's GUI framework bootstrapped with the overlay")
        assert "flowbuf-overlay" in overlays and "traffic" in overlays, overlays
        source = (overlay_js / "flowbufTopo.js").read_text()
        named = set(re.findall(r"\b(?:gid|glyphId): '([^']+)'", source))
        assert named, "the overlay names no glyph"
        # '*x' is the overlay's own glyph x, which ONOS registers as <overlay id>-x.
        ids = {g.replace("*", "flowbuf-overlay-", 1) for g in named}
        undefined = sorted(g for g in ids if not browser.execute_script(
            "return window.hasGlyph(arguments[0]);", g))
        assert not undefined, f"glyphs ONOS's GUI does not define: {undefined}"
    finally:
        server.shutdown()
