# SPDX-License-Identifier: Apache-2.0
"""mkdocs-gen-files script (mkdocs.yml): the generated reference pages, made
at every build from the served OpenAPI document and the commands' own help."""
import pathlib
import sys

import mkdocs_gen_files

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
