"""Figures of a prepared trace, drawn headless (matplotlib's Agg backend, PNG files)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import matplotlib

matplotlib.use("Agg")  # no display on servers and CI; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402

from pycontrol.traces.stats import KeyStats, RateStats  # noqa: E402

_UNITS = ((3 * 86400, 86400, "days"), (3 * 3600, 3600, "hours"), (3 * 60, 60, "minutes"), (0, 1, "seconds"))


def plot_rate(path: Path, buckets: Sequence[tuple[int, float, int]], rate: RateStats, title: str = "") -> None:
    """Events/s over replay time. `buckets` are (start second, mean rate, busiest second) of
    equal-width time buckets. With 1-second buckets that is one curve; with wider ones the
    busiest second gets its own panel, as it can be orders of magnitude above the mean."""
    span = rate.seconds
    divisor, unit = next((d, u) for limit, d, u in _UNITS if span >= limit)
    if not buckets:
        buckets = [(0, 0.0, 0)]
    # "post" steps need the end of the last bucket to draw its width
    xs = [b[0] / divisor for b in buckets] + [span / divisor]
    means = [b[1] for b in buckets] + [buckets[-1][1]]
    peaks = [b[2] for b in buckets] + [buckets[-1][2]]
    wide = len(buckets) > 1 and buckets[1][0] - buckets[0][0] > 1
    fig, axes = plt.subplots(2 if wide else 1, 1, figsize=(10, 6 if wide else 4), sharex=True,
                             layout="constrained", squeeze=False)
    try:
        ax = axes[0][0]
        width = buckets[1][0] - buckets[0][0] if wide else 1
        ax.step(xs, means, where="post", color="tab:blue", linewidth=0.9,
                label=f"mean over {width} s" if wide else "events in the second")
        ax.axhline(rate.mean, color="black", linestyle="--", linewidth=0.8, label=f"overall mean {rate.mean:.3g}/s")
        ax.set_ylabel("events / s")
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper right", fontsize="small")
        ax.set_title(f"{title}  (peak {rate.peak}/s, peak/mean {rate.peak_to_mean:.2f}, CV {rate.cv:.2f})")
        if wide:
            low = axes[1][0]
            low.step(xs, peaks, where="post", color="tab:orange", linewidth=0.7,
                     label=f"busiest second in {width} s")
            low.set_ylabel("events / s")
            low.set_ylim(bottom=0)
            low.legend(loc="upper right", fontsize="small")
        axes[-1][0].set_xlabel(f"replay time ({unit})")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_rank_frequency(path: Path, keys: KeyStats, title: str = "") -> None:
    """Key count against rank on log-log axes, with the fitted Zipf line over the ranks it used."""
    fig, ax = plt.subplots(figsize=(6, 5), layout="constrained")
    try:
        if keys.rank_points:
            ranks, counts = zip(*keys.rank_points)
            ax.loglog(ranks, counts, "o", markersize=3, label="keys (log-spaced ranks)")
        if keys.zipf:
            z = keys.zipf
            xs = [1, z.max_rank]
            ax.loglog(xs, [math.exp(z.intercept) * x ** -z.exponent for x in xs], "-", color="tab:red",
                      label=f"Zipf fit s={z.exponent:.2f} (R²={z.r2:.3f}, counts ≥ {z.min_count})")
        ax.set_xlabel("rank")
        ax.set_ylabel("events")
        ax.set_title(f"{title}  ({keys.distinct} keys)")
        ax.legend(loc="lower left", fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
