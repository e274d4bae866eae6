# SPDX-License-Identifier: Apache-2.0
"""tools/onos/onos_source.py's app staging: an ONOS app is staged (apps/<name>/app.xml
and its features repository in Karaf's system/) only when its bundles are all
there and its required apps are staged, whatever order the apps come in."""
import importlib.util
import pathlib

from test.lab.servicelab import ROOT

_spec = importlib.util.spec_from_file_location("onos_source", ROOT / "tools/onos/onos_source.py")
onos_source = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(onos_source)


def app(name, bundles, required=()):
    return {"package": name, "name": "onos-" + name, "app_name": "org.onosproject." + name,
            "title": name, "origin": "ONOS Community", "category": "Test", "url": "",
            "description": name, "version": "2.7.0", "required_apps": list(required),
            "required_features": ["onos-api"],
            "bundles": [onos_source.parse_mvn(f"mvn:org.onosproject:{b}:2.7.0") for b in bundles]}


def put_jar(system, artifact):
    path = pathlib.Path(system, "org/onosproject", artifact, "2.7.0", f"{artifact}-2.7.0.jar")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"PK")


def test_apps_are_staged_after_their_required_apps_whatever_the_order(tmp_path):
    system, apps_dir = tmp_path / "system", tmp_path / "apps"
    for artifact in ("onos-drivers-p4runtime", "onos-providers-general-device",
                     "onos-protocols-gnmi-ctl"):
        put_jar(system, artifact)
    apps = [
        # Given before the app it requires, as assemble.sh's list once had it.
        app("p4runtime", ["onos-drivers-p4runtime"], required=["org.onosproject.general"]),
        app("general", ["onos-providers-general-device"], required=["org.onosproject.gnmi"]),
        app("gnmi", ["onos-protocols-gnmi-ctl"]),
        app("bmv2", ["onos-drivers-bmv2"], required=["org.onosproject.p4runtime"]),
        app("stratum", ["onos-drivers-p4runtime"], required=["org.onosproject.bmv2"]),
    ]
    staged, left_out = onos_source.stage_apps(apps, str(system), str(apps_dir))
    assert staged == ["org.onosproject.gnmi", "org.onosproject.general",
                      "org.onosproject.p4runtime"]
    assert left_out == {
        "org.onosproject.bmv2": [
            "org/onosproject/onos-drivers-bmv2/2.7.0/onos-drivers-bmv2-2.7.0.jar"],
        "org.onosproject.stratum": ["app org.onosproject.bmv2"],
    }
    assert sorted(p.name for p in apps_dir.iterdir()) == sorted(staged) and all(
        (apps_dir / name / "app.xml").is_file() for name in staged)
    app_xml = (apps_dir / "org.onosproject.p4runtime" / "app.xml").read_text()
    assert 'apps="org.onosproject.general"' in app_xml
    assert "<artifact>mvn:org.onosproject/onos-drivers-p4runtime/2.7.0</artifact>" in app_xml
