# SPDX-License-Identifier: Apache-2.0
"""Nothing the README said before the docs site was lost in the move: every
figure (every number as written), every code span and every sentence of the
long README of LAST_LONG_README is still in README.md or docs/.

Text that was reworded on its page rather than moved verbatim is listed in
REWORDED (a figure or a sentence's first words, with the words on the page
that now say it): each entry was checked by hand, and the test still fails
if the new words go."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The last commit whose README held everything, before it moved to docs/
# (main's README with the update of b03bc5d, which came after the docs
# site was cut from 8840f28).
LAST_LONG_README = "b03bc5da3bd3b7367b5d67a5dec7a28969cf8c44"
# b03bc5d's additions, reworded on their pages: what the README said -> the
# words that say it now.
REWORDED = {
    # docs/figures/index.md, the XDP ceiling table: 1.942 Mpps.
    "1.94": "| `generator_mpps_64b` | 1.942",
    # docs/apps/fmm.md, "The no-buffering baseline (fixed 2026-11-28)".
    "The no-buffering baseline, fixed 2026-11-28: a throughput run's":
        "A throughput run's handoffs start once iperf3's test data reaches the UE",
    "Started with the client, the baseline's handoffs dropped":
        "Started together with the client, the baseline's handoffs dropped iperf3's set-up",
    "The cut itself was sound (both radios cut:":
        "The cut itself was sound (with both radios cut, 100 of 100 pings lost",
    "The baseline's figures before that day (0.03–9.43 Mbit/s":
        "figures before 2026-11-28 are not comparable with today's",
    "Measured 2026-11-28 on the loaded machine (`fmm --quick":
        "`fmm --quick --modes fmm,none --repeat 5`): `fmm_vs_no_buffering` median **7.58**",
    "FMM 28.7–33.5 Mbit/s at 18–35 achieved handoffs/s against":
        "FMM 28.7–33.5 Mbit/s at 18–35 achieved handoffs/s, no buffering 1.45–12.98",
    "LMM (`lmm --quick`, one run): `lmm_vs_no_buffering` 1.095;":
        "LMM (`lmm --quick`, one run): `lmm_vs_no_buffering` 1.095 (LMM",
    # LMM got --repeat on 2026-11-29; the page gives the repeated figure.
    "LMM has no `--repeat` yet.":
        "Repeated on 2026-11-29 (`lmm --quick --repeat 5`",
    # docs/pbswitch.md, the STF run and the engine's specialisation.
    "Run again on 2026-11-28 after the engine's specialisation":
        "After the engine's specialisation below (2026-11-28, p4c 1.2.4.6) the run gives the same",
    "Since 2026-11-28 the engine specialises the program at":
        "The engine specialises the program at load and at table writes",
    "Each has a test against the generic path.":
        "Each specialisation has a test against the generic path",
    "Instructions per packet (`tools/engine-instructions.sh`, callgrind, independent of load):":
        "routed FlowBuf packet 11,755 → 6,339, UPF downlink 23,971 → 14,613, uplink 22,280 → 14,489",
    "Top of the profile now: routed, deparse 9":
        "The top of the profile now (callgrind self instructions): routed, deparse 9 %",
    "Idle wall-clock figures for the goals (`engine_pipeline_ns_per_packet` ≤":
        "Idle wall-clock figures for `engine_pipeline_ns_per_packet` (≤ 350 ns)",
    "What limits them: the engine still interprets closures":
        "What limits the goals: the engine interprets closures",
    # docs/figures/index.md, below the XDP ceiling table.
    "A `perf` profile puts about half of pbswitch's":
        "a `perf` profile of the ceiling run puts about half of pbswitch's samples in the engine",
    # docs/pbswitch.md, "Programs from outside FlowBuf" and "gNMI".
    "Programs from outside FlowBuf run as on BMv2":
        "pbswitch runs any v1model program as BMv2 does",
    "gNMI: pbswitch's `--p4rt-listen` address also serves gNMI, as":
        "The `--p4rt-listen` address also serves gNMI, as Stratum serves both on one port",
    "It serves OpenConfig `/interfaces/interface[name=*]`: `state` (`name`, `ifindex` and":
        "pbswitch serves OpenConfig's `/interfaces/interface[name=*]`",
    "Link state comes from the kernel through netlink":
        "**link state** comes from the kernel through netlink",
    "The tests check the answers with Go ports":
        "checked by Go ports of its parsing in pbswitch's `gnmi` tests, not yet by a live ONOS",
    # docs/install/onos-stratum.md, "Running in ONOS on this machine".
    "On the way to a live run (2026-11-28):":
        "`tools/onos/` assembles an ONOS 2.7.0 runtime laid out like ONOS's release tarball",
    "From Maven Central alone Karaf 4.2.9 starts on":
        "from Maven Central alone: Karaf 4.2.9 on Java 11 with ONOS's third-party",
    "Still missing for FlowBuf's `.oar`:":
        "still missing for FlowBuf's `.oar`: ONOS's gRPC wrappers",
    "ONOS's gRPC wraps (some never published), the grpc/p4runtime/gnmi":
        "ONOS's gRPC wrappers (some never published), the grpc, p4runtime and gnmi `-ctl` bundles",
    # (pbswitch's gNMI for stratum-bmv2: its section "Which driver".)
    "Details, timings and what works: `tools/onos/README.md`. pbswitch now":
        "Details and timings: `tools/onos/README.md`.",
    # docs/apps/fb.md: FB's section is written by ONOS too now (FbComponent).
    "**In the embedded host**, a device's netcfg `\"fb\"`":
        "**In ONOS and in the embedded host**, a device's netcfg `\"fb\"` section writes",
    "**Not done yet:** an ONOS component writing the":
        "In ONOS, `FbComponent` (`app/app/…/onos`) registers the section and writes its entries",
}
# Pages whose text comes from elsewhere (snippets of the components' READMEs).
SNIPPETS = ("buffer-agent/README.md", "pbswitch/README.md", "CONTRIBUTING.md")


def old_readme():
    run = subprocess.run(["git", "show", f"{LAST_LONG_README}:README.md"], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode != 0:
        pytest.skip(f"commit {LAST_LONG_README} is not in this clone (shallow?): {run.stderr}")
    return run.stdout


def current_text():
    parts = [(ROOT / "README.md").read_text()]
    parts += [p.read_text() for p in sorted((ROOT / "docs").rglob("*.md"))]
    parts += [(ROOT / s).read_text() for s in SNIPPETS]
    return "\n".join(parts)


def figures(text):
    """Numbers as written (1,903; 0.988; 6.7–10.7 gives 6.7 and 10.7)."""
    return set(re.findall(r"\d[\d,]*(?:\.\d+)?", text))


def code_spans(text):
    return set(re.findall(r"`([^`\n]+)`", text))


def said_in_other_words(lost, now):
    """`lost` without what REWORDED says is now said (its new words found)."""
    flat = " ".join(now.split())
    return [item for item in lost if item not in REWORDED or REWORDED[item] not in flat]


def test_the_reworded_text_is_on_its_page():
    flat = " ".join(current_text().split())
    missing = {old: new for old, new in REWORDED.items() if new not in flat}
    assert not missing, f"reworded text no longer said: {missing}"


def test_every_figure_of_the_old_readme_is_still_said():
    old, now = old_readme(), current_text()
    lost = said_in_other_words(sorted(figures(old) - figures(now)), now)
    assert not lost, f"figures of the old README found nowhere now: {lost}"


def test_every_code_span_of_the_old_readme_is_still_said():
    old, now = old_readme(), current_text()
    lost = sorted(code_spans(old) - code_spans(now))
    assert not lost, f"code spans of the old README found nowhere now: {lost}"


def test_every_sentence_of_the_old_readme_is_still_said():
    """Prose moved verbatim: every sentence start (its first eight words,
    whitespace folded) is found in the new text."""
    # Links moved with their pages: compare the link text, not its target.
    unlink = lambda text: re.sub(r"\]\([^)\s]*\)", "]", text)  # noqa: E731
    old, now = unlink(old_readme()), " ".join(unlink(current_text()).split())
    lost = []
    for paragraph in old.split("\n\n"):
        flat = " ".join(paragraph.split())
        if not flat or flat.startswith(("```", "|", "#")):
            continue
        for sentence in re.split(r"(?<=[.:;])\s+(?=[A-Z])", flat):
            words = sentence.split()[:8]
            if len(words) >= 5 and " ".join(words) not in now:
                lost.append(" ".join(words))
    lost = said_in_other_words(lost, now)
    assert not lost, f"{len(lost)} sentences of the old README found nowhere now: {lost[:20]}"
