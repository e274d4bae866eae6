# SPDX-License-Identifier: Apache-2.0
"""The daemons' reference page, generated from their own help: pbswitch's
and the buffer-agent's flags (`-h`) and the agent's Prometheus metrics (the
collector's descriptors, printed by tools/docs/agentmetrics)."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
DAEMONS = {"buffer-agent": "./buffer-agent/cmd/buffer-agent", "pbswitch": "./pbswitch/cmd/pbswitch"}


def _go(*args):
    run = subprocess.run(["go", "run", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    return run


def flags_help(name):
    """`NAME -h` as the daemon prints it (Go's flag package exits 2 on -h)."""
    run = _go(DAEMONS[name], "-h")
    text = run.stderr or run.stdout
    if "Usage of" not in text:
        raise SystemExit(f"{name} -h printed no usage: {text[-2000:]}")
    return "\n".join(line for line in text.splitlines()
                     if not re.match(r"^(exit status|\S+: flag: help requested)", line))


def flag_names(help_text):
    return re.findall(r"^  -([\w-]+)", help_text, re.M)


def agent_metrics_table():
    run = _go("./tools/docs/agentmetrics")
    if run.returncode != 0:
        raise SystemExit(f"tools/docs/agentmetrics failed: {run.stderr[-2000:]}")
    return run.stdout


def render():
    lines = ["# Daemon flags and metrics (generated)", "",
             "Generated at `make docs` time from the daemons' own help (`-h`) and the "
             "buffer-agent's Prometheus collector. What they do: [buffer-agent](../buffer-agent.md), "
             "[pbswitch](../pbswitch.md).", ""]
    for name in DAEMONS:
        text = flags_help(name)
        lines += [f"## `{name}` flags {{#{name}-flags}}", "", "```text", text.rstrip(), "```", ""]
    lines += ["## buffer-agent metrics {#buffer-agent-metrics}", "",
              "Served at `-metrics-listen` (`/metrics`), read from the engine at scrape time.", "",
              agent_metrics_table()]
    return "\n".join(lines) + "\n"
