"""PNG plots of an OTD run: one panel per metric over time, the moves as dotted lines and the switch
from Storm's default placement to OTD as a solid one (data from summary.plot_series)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pycontrol.bench.otd.summary import LABELS


def plot_run(series: dict, metrics: Sequence[str], title: str, path: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, 2.3 * len(metrics)), sharex=True, squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        data = series[metric]
        ax.plot(data["x"], data["y"], lw=1.2, marker="." if metric != "throughput" else None)
        ax.set_ylabel(LABELS[metric], fontsize=8)
        for i, x in enumerate(series["moves"]):
            ax.axvline(x, color="tab:red", ls=":", lw=1, label="OTD move" if i == 0 else None)
        if series["phase_switch"] is not None:
            ax.axvline(series["phase_switch"], color="k", lw=1.2, label="default -> OTD")
        ax.grid(alpha=0.3)
    return _finish(plt, fig, axes, title, "seconds", path)


def plot_scaling(rows: Sequence[dict], path: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r.get("ok")]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog([r["executors"] * r["workers"] for r in ok], [r["median_thread_cpu_ms"] for r in ok], "o-",
              label="thread CPU")
    ax.loglog([r["executors"] * r["workers"] for r in ok], [r["median_ms"] for r in ok], "s--", label="wall")
    for r in ok:
        ax.annotate(f"{r['executors']}x{r['workers']}", (r["executors"] * r["workers"], r["median_ms"]), fontsize=7)
    ax.set_xlabel("executors x workers")
    ax.set_ylabel("one OTD round (ms, median)")
    ax.set_title("OTD round time vs E x N")
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_comparison(otd_windows: Sequence[dict], control_windows: Sequence[dict], metrics: Sequence[str],
                    labels: dict[str, str], move_offsets: Sequence[float], title: str, path: Path) -> Path:
    """OTD and its control window by window (x: seconds into the measured phase), one panel per metric,
    OTD's moves as dotted lines."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, 2.1 * len(metrics)), sharex=True, squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        for rows, name, style in ((otd_windows, "OTD", "o-"), (control_windows, "control (no moves)", "s--")):
            pts = [(w["offset_s"], w[metric]) for w in rows if w[metric] is not None]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, lw=1.2, ms=3, label=name)
        for i, x in enumerate(move_offsets):
            ax.axvline(x, color="tab:red", ls=":", lw=1, label="OTD move" if i == 0 else None)
        ax.set_ylabel(labels[metric], fontsize=8)
        ax.grid(alpha=0.3)
    return _finish(plt, fig, axes, title, "seconds into the measured phase (window start)", path)


def _finish(plt, fig, axes, title: str, xlabel: str, path: Path) -> Path:
    """The stacked timelines' common ending: title and legend on top, x label below, saved and closed."""
    axes[0, 0].set_title(title)
    axes[0, 0].legend(loc="upper left", fontsize=7)
    axes[-1, 0].set_xlabel(xlabel)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
