# SPDX-License-Identifier: Apache-2.0
"""The docs site (mkdocs.yml, docs/): it builds with no warning (MkDocs'
strict mode, with every page link and anchor checked), every REST operation
of the served OpenAPI document, every CLI command and every netcfg key has its
reference entry, and the README is short and links only to what exists."""
import html.parser
import os
import pathlib
import re
import subprocess
import sys

import javalang
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "docs"))
import cli_reference  # noqa: E402
import daemon_reference  # noqa: E402
import rest_reference  # noqa: E402

README_MAX_LINES = 250


class _Ids(html.parser.HTMLParser):
    """Every id= of a page: what an anchor can point to."""

    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(v for k, v in attrs if k == "id")


def page_ids(site, page):
    """The ids of the built page for docs/<page>.md."""
    stem = page[:-len(".md")]
    if stem == "index" or stem.endswith("/index"):
        built = site / (stem[:-len("index")] + "index.html")
    else:
        built = site / stem / "index.html"
    parser = _Ids()
    parser.feed(built.read_text())
    return parser.ids


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Builds the site as `make docs` does; a warning fails the build."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    run = subprocess.run([str(pathlib.Path(sys.executable).parent / "mkdocs"), "build",
                          "--strict", "--site-dir", str(out)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-5000:]
    assert "WARNING" not in run.stderr, run.stderr[-5000:]
    return out


def test_the_site_builds_with_no_warning_and_every_nav_page(site):
    for page in ("index.md", "reference/rest-operations.md", "reference/cli-commands.md",
                 "reference/netcfg.md", "figures/index.md", "changelog.md"):
        assert page_ids(site, page), page


def test_every_rest_operation_has_its_documented_entry(site):
    doc = rest_reference.load_document()
    ids = page_ids(site, "reference/rest-operations.md")
    missing, undocumented = [], []
    for method, path, op in rest_reference.operations(doc):
        if rest_reference.anchor(method, path) not in ids:
            missing.append(f"{method.upper()} {path}")
        if not (op.get("summary") or "").strip():
            undocumented.append(f"{method.upper()} {path}")
    assert not missing, f"operations without a reference entry: {missing}"
    assert not undocumented, f"operations without a summary (@ApiOperation): {undocumented}"
    for name in doc.get("definitions", {}):
        assert rest_reference.schema_anchor(name) in ids, name
    assert "known-gaps" in ids


def test_every_cli_command_has_its_documented_entry(site):
    ids = page_ids(site, "reference/cli-commands.md")
    commands = cli_reference.karaf_commands()
    assert len(commands) >= 20, commands
    for command in commands:
        assert command["description"].strip(), f"{command['class']}: @Command has no description"
        assert cli_reference.anchor(command["name"]) in ids, command["name"]
    top_help, verbs = cli_reference.flowbuf_verbs()
    for verb, _ in verbs:
        assert f"flowbuf-{cli_reference.anchor(verb)}" in ids, verb
        # cli/flowbuf's own help (its docstring) names every verb.
        assert re.search(rf"(?<![\w-]){re.escape(verb)}(?![\w-])", top_help), \
            f"cli/flowbuf -h does not name {verb}"


def test_every_daemon_flag_and_metric_has_its_entry(site):
    ids = page_ids(site, "reference/daemons.md")
    assert {"buffer-agent-flags", "pbswitch-flags", "buffer-agent-metrics"} <= ids
    page = (site / "reference" / "daemons" / "index.html").read_text()
    for name in daemon_reference.DAEMONS:
        source = "\n".join(p.read_text() for p in (ROOT / daemon_reference.DAEMONS[name]).glob("*.go")
                           if not p.name.endswith("_test.go"))
        # fs.XVar(&v, "name", ...) names its flag second; fs.X("name", ...) and
        # flag.X("name", ...) first (a second string there is its default).
        defined = set(re.findall(r'fs\.\w+Var\([^,]+, "([\w-]+)"|(?:fs|flag)\.(?!NewFlagSet)(?!\w+Var\()\w+\("([\w-]+)"',
                                 source))
        defined = {a or b for a, b in defined}
        assert len(defined) >= 10, (name, defined)
        missing = [f for f in defined if f"-{f}" not in page]
        assert not missing, f"{name} flags without an entry: {missing}"
    assert page.count("flowbuf_agent_") >= 20


def _string_constants(path):
    """Values of the `static final String` constants of a Java class."""
    tree = javalang.parse.parse(path.read_text())
    values = []
    for _, field in tree.filter(javalang.tree.FieldDeclaration):
        if "static" in field.modifiers and field.type.name == "String":
            init = field.declarators[0].initializer
            if isinstance(init, javalang.tree.Literal):
                values.append(init.value.strip('"'))
    return values


NETCFG_CLASSES = ("app/app/src/main/java/org/flowbuf/app/config/FlowBufDeviceConfig.java",
                  "app/app/src/main/java/org/flowbuf/app/config/FbDeviceConfig.java",
                  "host/src/main/java/org/flowbuf/host/fba/FbaSetting.java",
                  "app/api/src/main/java/org/flowbuf/api/codec/HeavyHitterSettingsCodec.java",
                  "app/app/src/main/java/org/flowbuf/app/config/HeavyHitterAppConfig.java",
                  "app/app/src/main/java/org/flowbuf/app/config/GnbDeviceConfig.java",
                  "app/api/src/main/java/org/flowbuf/api/codec/HybridSettingsCodec.java",
                  "app/app/src/main/java/org/flowbuf/app/config/HybridAppConfig.java",
                  "app/api/src/main/java/org/flowbuf/api/codec/UpfQosPolicyCodec.java")


def test_every_netcfg_key_is_in_the_netcfg_reference():
    page = (ROOT / "docs" / "reference" / "netcfg.md").read_text()
    keys = [k for path in NETCFG_CLASSES for k in _string_constants(ROOT / path)]
    # The congestion settings are read by name (json.path("...")).
    settings = (ROOT / "app/app/src/main/java/org/flowbuf/app/config/CcSettings.java").read_text()
    keys += re.findall(r'json\.path\("(\w+)"\)', settings)
    assert {"agentAddress", "readyBuffers", "bufferPackets", "periodMs", "factor"} <= set(keys)
    missing = [k for k in keys if f"`{k}`" not in page and f".{k}`" not in page
               and f"`{k}." not in page]
    assert not missing, f"netcfg keys without a reference entry: {missing}"


def test_the_readme_is_short_and_links_only_to_what_exists(site):
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_MAX_LINES
    for target in re.findall(r"\]\(([^)#\s]+)(#[^)\s]*)?\)", readme):
        path, anchor = target
        if path.startswith("http"):
            continue
        assert (ROOT / path).exists(), f"README links to {path}, which does not exist"
        if anchor and path.startswith("docs/") and path.endswith(".md"):
            page = path[len("docs/"):]
            assert anchor[1:] in page_ids(site, page), f"README links to {path}{anchor}"
