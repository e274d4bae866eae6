# SPDX-License-Identifier: Apache-2.0
"""What every scenario reports: one JSON line per metric on stdout, and
plots (matplotlib, headless) under test/artifacts."""
import json
import statistics

from test.lab.servicelab import ROOT

ARTIFACTS = ROOT / "test" / "artifacts"


def emit(metric, value, unit, **conditions):
    print(json.dumps({"metric": metric, "value": value, "unit": unit, "conditions": conditions}),
          flush=True)


def emit_ratio(metric, ratios, **conditions):
    """A ratio measured `len(ratios)` times: its median and spread."""
    if len(ratios) > 1:
        conditions.update(runs=len(ratios), min=round(min(ratios), 3),
                          max=round(max(ratios), 3))
    emit(metric, round(statistics.median(ratios), 3), "ratio", **conditions)


def subplots(*args, **kwargs):
    """matplotlib's subplots, without a display."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt.subplots(*args, **kwargs)


def save(fig, name):
    """Writes the figure to test/artifacts/<name>.png; returns the path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    path = ARTIFACTS / f"{name}.png"
    fig.savefig(path, dpi=100)
    return path


def throughput_plot(name, title, frequencies, series):
    """TCP throughput against handoffs per second; series are
    (label, style, {frequency: Mbit/s}), the optimal line first."""
    fig, ax = subplots(figsize=(6, 4))
    for label, style, by_frequency in series:
        ax.plot(frequencies, [by_frequency[f] for f in frequencies], style, label=label)
    ax.set_xlabel("handoffs per second")
    ax.set_ylabel("TCP throughput (Mbit/s)")
    ax.set_ylim(bottom=0)
    ax.set_title(title)
    ax.legend()
    return save(fig, name)
