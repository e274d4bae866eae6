# SPDX-License-Identifier: Apache-2.0
"""mkdocs-gen-files script (mkdocs.yml): the generated reference pages, made
at every build from the served OpenAPI document and the commands' own help."""
import pathlib
import sys
import tomllib

import mkdocs_gen_files

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cli_reference  # noqa: E402
import daemon_reference  # noqa: E402
import rest_reference  # noqa: E402

with mkdocs_gen_files.open("reference/rest-operations.md", "w") as page:
    page.write(rest_reference.render(rest_reference.load_document()))
with mkdocs_gen_files.open("reference/cli-commands.md", "w") as page:
    page.write(cli_reference.render())
with mkdocs_gen_files.open("reference/daemons.md", "w") as page:
    page.write(daemon_reference.render())


def known_gaps():
    """The rules the server checks that the OpenAPI document cannot state
    (test/hostile/openapi_exceptions.toml, which the schemathesis run in
    make test matches refusals against)."""
    path = ROOT / "test" / "hostile" / "openapi_exceptions.toml"
    return tomllib.loads(path.read_text())["refusal"]


def _cell(text):
    return text.replace("|", "\\|")


with mkdocs_gen_files.open("reference/rest-operations.md", "a") as page:
    page.write("\n## What the document does not say {#known-gaps}\n\n"
               "The document states every field's type, range, pattern and the rules between "
               "fields that JSON Schema can write (`oneOf`, `anyOf`, `dependencies`). The server "
               "also checks these, which the document states in descriptions at most; a request "
               "that breaks one is a 400 naming the field. The schemathesis run in `make test` "
               "(`test/hostile`, every check) fails on any other refusal of a request the "
               "document calls valid; it matches refusals against this list "
               "(`test/hostile/openapi_exceptions.toml`), and also takes an explicit JSON `null` "
               "as the field's absence, a 413 (a body over 1 MiB) as the refusal it is, and a "
               "204 without a body as needing no Content-Type.\n\n"
               "| rule | operations | why the document cannot say it | the server's message matches |\n"
               "|---|---|---|---|\n")
    for gap in known_gaps():
        where = "all" if gap["operations"] == "." else f"`{gap['operations']}`"
        page.write(f"| {_cell(gap['rule'])} | {_cell(where)} | {_cell(gap['why'])} | "
                   f"`{_cell(gap['message'])}` |\n")

# The scenario plots `make scenarios` draws (test/artifacts/, not committed):
# shown when this checkout has run the scenarios, named otherwise.
PLOTS = (("lmm", "LMM scenario", "../apps/lmm.md"),
         ("fmm", "FMM scenario", "../apps/fmm.md"),
         ("nfv_migration", "NFV migration scenario", "../apps/nfv.md"),
         ("connectionless", "Connectionless scenario", "../apps/connectionless.md"),
         ("congestion_delay", "Congestion avoidance: delay over time", "../apps/congestion.md"),
         ("congestion_qos", "Congestion avoidance: the paper's Fig. 6 metrics",
          "../apps/congestion.md"))
with mkdocs_gen_files.open("figures/plots.md", "w") as page:
    page.write("# Scenario plots (generated)\n\nDrawn by `make scenarios` into `test/artifacts/` "
               "and copied here by `make docs` when present; the figures behind them and how "
               "they are measured: [Measured figures](index.md).\n\n")
    for name, title, about in PLOTS:
        png = ROOT / "test" / "artifacts" / f"{name}.png"
        page.write(f"## {title}\n\n")
        if png.exists():
            with mkdocs_gen_files.open(f"figures/plots/{name}.png", "wb") as image:
                image.write(png.read_bytes())
            page.write(f"![{title}](plots/{name}.png)\n\n")
        else:
            page.write(f"Not drawn in this checkout: `make scenarios`, then `make docs`, puts "
                       f"`test/artifacts/{name}.png` here.\n\n")
        page.write(f"About it: [{title.split(':')[0]}]({about}).\n\n")
