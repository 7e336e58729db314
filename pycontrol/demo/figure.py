"""Part 1's figure, drawn headless: one column per placement change (M executors moved; Storm's
rebalance on its own), acked tuples/s on top and p99 latency from the intended emit time below,
both ways in each panel, the move at t = 0."""

from __future__ import annotations

from pathlib import Path

COLORS = {"stock": "tab:red", "stock rebalance": "tab:orange", "nonstop": "tab:blue"}


def columns(timelines: list[dict]) -> list[tuple[str, list[dict]]]:
    """("M = 1", [stock, nonstop]), ..., then ("rebalance", [...]) when one ran. Pure."""
    out = [(f"{m} executor{'s' if m > 1 else ''} moved", [t for t in timelines if t["m"] == m])
           for m in sorted({t["m"] for t in timelines if t["m"]})]
    rebalance = [t for t in timelines if not t["m"]]
    return out + ([("Storm's rebalance", rebalance)] if rebalance else [])


def draw(timelines: list[dict], rate: float, path: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")  # headless; must precede pyplot
    import matplotlib.pyplot as plt

    cols = columns(timelines)
    fig, axes = plt.subplots(2, len(cols), figsize=(4.6 * len(cols) + 1, 6.5), sharex=True, squeeze=False)
    for i, (title, group) in enumerate(cols):
        ax_t, ax_l = axes[0][i], axes[1][i]
        for t in group:
            style = {"color": COLORS.get(t["way"]), "linewidth": 1.3, "label": t["way"]}
            ax_t.plot(t["t"], t["acked"], **style)
            # Seconds without acks have no latency: gaps, not zeros.
            ax_l.plot(t["t"], [float("nan") if v is None else v for v in t["latency_p99_ms"]], **style)
        for ax in (ax_t, ax_l):
            ax.axvline(0, color="grey", linestyle="--", linewidth=0.9)
        ax_t.axhline(rate, color="black", linestyle=":", linewidth=0.8)
        ax_t.set_title(title)
        ax_t.set_ylim(bottom=0)
        if any(v for t in group for v in t["latency_p99_ms"]):   # log scale needs a positive value
            ax_l.set_yscale("log")
        ax_l.set_xlabel("seconds after the move (dashed)")
        if i == 0:
            ax_t.set_ylabel(f"acked/s (offered {rate:g}/s: dotted)")
            ax_l.set_ylabel("p99 latency (ms, log)")
        ax_t.legend(fontsize=8)
    fig.suptitle("one move, two ways: the same placement change on stock Storm and on nonstop\n"
                 "(latency from each tuple's intended emit time)", fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
