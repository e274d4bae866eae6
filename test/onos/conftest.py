# SPDX-License-Identifier: Apache-2.0
"""One ONOS for all of test/onos's modules (it takes minutes to start on
this machine): started, FlowBuf's .oar installed and activated once per
session. test_onos_live's last test deactivates and uninstalls FlowBuf, so
that module runs last (pytest_collection_modifyitems below puts it there,
whatever the other modules are named)."""
import pytest

from test.onos.onos import Onos, flowbuf_components, oar_app, oar_path, scr_states, wait


LAST_MODULE = "test_onos_live.py"


def pytest_collection_modifyitems(items):
    """test_onos_live's tests after every other module's (a stable sort)."""
    items.sort(key=lambda item: item.path.name == LAST_MODULE)


@pytest.fixture(scope="session")
def onos():
    instance = Onos()
    try:
        instance.start()
        yield instance
    finally:
        instance.stop()


@pytest.fixture(scope="session")
def oar():
    return oar_path()


@pytest.fixture(scope="session")
def installed(onos, oar):
    """FlowBuf's .oar installed (not activated): (app name, its required apps,
    ONOS's answer, ONOS's listing of it right after: later fixtures activate it)."""
    name, required = oar_app(oar)
    if name in onos.applications():  # ONOS keeps installed apps in $ONOS_ROOT/apps
        onos.uninstall(name)
    try:
        answer = onos.install_oar(oar)
        yield name, required, answer, onos.applications()[name]
    finally:
        # Leaves the ONOS as it was: FlowBuf not installed (the last test
        # uninstalls it itself).
        if name in onos.applications():
            onos.uninstall(name)


@pytest.fixture(scope="session")
def flowbuf(onos, installed):
    """FlowBuf activated, with the apps it requires (ONOS activates those first)."""
    name, required = installed[:2]
    apps = onos.applications()
    absent = [a for a in required if a not in apps]
    if absent:
        pytest.skip(f"this ONOS has no app {', '.join(absent)}, which FlowBuf requires "
                    f"(ONOS's release tarball has them; tools/onos/assemble.sh stages an app "
                    f"when its bundles are built)")
    mark = onos.log_mark()
    onos.activate(name)
    expected = flowbuf_components()
    try:
        wait(lambda: onos.applications()[name]["state"] == "ACTIVE", 300, f"{name} ACTIVE")
        # ONOS marks the app ACTIVE before Karaf has installed and started its
        # bundles: its components say when FlowBuf runs.
        wait(lambda: all(scr_states(onos.shell.run("scr:list | cat")).get(c) == "ACTIVE"
                         for c in expected), 180, "FlowBuf's components ACTIVE")
    except TimeoutError as e:
        pytest.fail(f"{e}; ONOS's log says:\n{onos.log_problems(mark)}")
    return name
