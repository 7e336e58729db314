"""Figures of grouping simulations in the style of the Consistent Grouping paper, drawn headless (PNG).

- time series (Figs. 9, 10, 13): per scheme, utilisation spread (max - min), queue-length spread and
  mean latency over the stream; CG's virtual workers per worker over the stream;
- summary (Fig. 8): imbalance and memory per scheme;
- sweeps (Figs. 4, 6, 7, 11, 12): imbalance and memory per scheme against the swept parameter.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display on servers and CI; must precede pyplot
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"kg": "tab:red", "sg": "tab:gray", "pkg": "tab:orange", "potc": "tab:purple", "ch": "tab:brown",
          "porc": "tab:cyan", "cg": "tab:blue"}


def _color(scheme: str) -> str:
    return COLORS.get(scheme, "black")


def _subtitle(doc: dict) -> str:
    cfg, trace = doc["config"], doc["trace"]
    caps = cfg["capacities"]
    kind = "changing" if caps["changes"] else ("heterogeneous" if len(set(caps["initial"])) > 1 else "homogeneous")
    return (f"{trace['description']}: {trace['messages']} messages, {trace['distinct_keys']} keys; "
            f"{len(caps['initial'])} workers ({kind}), {cfg['sources']} sources, load {cfg['load']:g}")


def plot_timeseries(doc: dict, path: Path) -> None:
    panels = [("utilisation_spread", "utilisation\nmax − min", False),
              ("queue_spread", "queue length\nmax − min", True),
              ("latency_mean", "mean latency\n(ticks)", True)]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 8), sharex=True, layout="constrained")
    try:
        for ax, (column, label, log) in zip(axes, panels):
            for run in doc["runs"]:
                s = run["series"]
                points = [(t, v) for t, v in zip(s["t"], s[column]) if v is not None]
                if points:
                    ax.plot(*zip(*points), label=run["scheme"], color=_color(run["scheme"]), linewidth=1)
            ax.set_ylabel(label)
            if log:
                ax.set_yscale("symlog", linthresh=1)
            ax.grid(alpha=0.3)
        for change in doc["config"]["capacities"]["changes"]:
            for ax in axes:
                ax.axvline(change["at_message"], color="black", linestyle=":", linewidth=0.8)
        axes[0].legend(loc="upper right", fontsize="small", ncol=len(doc["runs"]))
        axes[0].set_title(_subtitle(doc), fontsize="small")
        axes[-1].set_xlabel("messages (time)")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_virtual_workers(doc: dict, path: Path) -> bool:
    """CG's VWs per worker over the stream (source 0's table); False if the run has no CG."""
    cg = next((r for r in doc["runs"] if r["scheme"] == "cg"), None)
    if cg is None or not cg["series"].get("virtual_workers"):
        return False
    s = cg["series"]
    rows = [v for v in s["virtual_workers"] if v is not None]
    capacities = doc["config"]["capacities"]["initial"]
    fig, ax = plt.subplots(figsize=(10, 4), layout="constrained")
    try:
        for w in range(len(rows[0])):
            ax.step(s["t"][:len(rows)], [r[w] for r in rows], where="post", linewidth=1,
                    label=f"worker {w} (capacity {capacities[w]:g})")
        for change in doc["config"]["capacities"]["changes"]:
            ax.axvline(change["at_message"], color="black", linestyle=":", linewidth=0.8)
        ax.set_xlabel("messages (time)")
        ax.set_ylabel("virtual workers")
        ax.set_title("CG: virtual workers per worker (source 0)\n" + _subtitle(doc), fontsize="small")
        if len(rows[0]) <= 12:
            ax.legend(loc="upper right", fontsize="x-small", ncol=2)
        ax.grid(alpha=0.3)
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
    return True


def plot_summary(doc: dict, path: Path) -> None:
    runs = doc["runs"]
    names = [r["scheme"] for r in runs]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    try:
        x = range(len(runs))
        left.bar([i - 0.2 for i in x], [r["summary"]["imbalance_mean"] for r in runs], width=0.4, label="all windows",
                 color=[_color(n) for n in names], alpha=0.5)
        left.bar([i + 0.2 for i in x], [r["summary"]["imbalance_mean_second_half"] for r in runs], width=0.4,
                 label="second half", color=[_color(n) for n in names])
        left.set_ylabel("imbalance (max − mean utilisation)")
        left.legend(fontsize="small")
        right.bar(list(x), [r["summary"]["memory_normalised"] for r in runs], color=[_color(n) for n in names])
        right.set_ylabel("memory (distinct keys per worker, summed / keys)")
        right.set_yscale("log")
        for ax in (left, right):
            ax.set_xticks(list(x), names)
            ax.grid(axis="y", alpha=0.3)
        fig.suptitle(_subtitle(doc), fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_sweep(result: dict, path: Path) -> None:
    param, points = result["parameter"], result["points"]
    schemes = list(points[0]["summaries"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    try:
        xs = [p["value"] for p in points]
        for scheme in schemes:
            imbalance = [p["summaries"][scheme]["imbalance_mean_second_half"] for p in points]
            memory = [p["summaries"][scheme]["memory_normalised"] for p in points]
            left.plot(xs, imbalance, marker="o", label=scheme, color=_color(scheme))
            right.plot(xs, memory, marker="o", label=scheme, color=_color(scheme))
        left.set_ylabel("imbalance (second half)")
        left.set_yscale("symlog", linthresh=1e-3)
        right.set_ylabel("memory / distinct keys")
        right.set_yscale("log")
        for ax in (left, right):
            ax.set_xlabel(param)
            ax.grid(alpha=0.3)
        left.legend(fontsize="small")
        fig.suptitle(f"sweep of {param}", fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
