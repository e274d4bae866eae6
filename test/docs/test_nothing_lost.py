# SPDX-License-Identifier: Apache-2.0
"""Nothing the README said before the docs site was lost in the move: every
figure (every number as written) and every code span of the 1,903-line README
of LAST_LONG_README is still in README.md or docs/."""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The last commit whose README held everything, before it moved to docs/.
LAST_LONG_README = "8840f28ad8abeeae48edf92bd2956d588a88a49b"
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


def test_every_figure_of_the_old_readme_is_still_said():
    old, now = old_readme(), current_text()
    lost = sorted(figures(old) - figures(now))
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
    assert not lost, f"{len(lost)} sentences of the old README found nowhere now: {lost[:20]}"
