"""`pycontrol demo`: the README's main job."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from pycontrol.cli.common import DEFAULT_HOME, resolve_home
from pycontrol.demo import run_demo
from pycontrol.demo.options import PARTS, make_options
from pycontrol.paths import REPO_ROOT


def register(main: click.Group) -> None:
    main.add_command(demo)


@click.command()
@click.option("--part", type=click.Choice(PARTS), default="all", show_default=True,
              help="move: one move, two ways (stock Storm vs nonstop); controller: OTD against a control run.")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help=f"Directory of the demo's clusters (default: {DEFAULT_HOME.parent / 'demo'}).")
@click.option("--rate", type=int, default=300, show_default=True, help="Part 1: sentences/s offered (below saturation).")
@click.option("--before", "before_s", type=float, default=5, show_default=True,
              help="Part 1: steady seconds before each move.")
@click.option("--after", "after_s", type=float, default=30, show_default=True,
              help="Part 1: seconds watched after each move (the table's window).")
@click.option("--moves", default="1,4", show_default=True, help="Part 1: executors moved at once, one move each.")
@click.option("--rebalance/--no-rebalance", default=False, show_default=True,
              help="Part 1: also Storm's rebalance on the stock cluster (about a minute more).")
@click.option("--warmup", "warmup_s", type=float, default=20, show_default=True,
              help="Part 2: seconds of warm-up in each run (the controller observing), left out of the comparison.")
@click.option("--duration", "phase_s", type=float, default=50, show_default=True,
              help="Part 2: seconds of each phase (OTD live, and the control run without moves).")
@click.option("--network", default="auto", show_default=True,
              help="auto (netns where network namespaces can be made, i.e. as root; else loopback), loopback, "
                   "or netns. Part 2 shapes netns links.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results directory (default: results/demo/<date-time>).")
@click.option("--port-base", type=int, default=17000, show_default=True,
              help="Port base of the demo's clusters (they run one after the other on the same ports).")
@click.option("--keep", is_flag=True, help="Leave the demo's last cluster running (its clusters share the port base).")
@click.option("--json", "as_json", is_flag=True, help="Print the result document at the end.")
def demo(part, home, rate, before_s, after_s, moves, rebalance, warmup_s, phase_s, network, out, port_base, keep,
         as_json) -> None:
    """What the suite is for, on local clusters: one placement change applied by stock Storm and by
    nonstop, then the controller's OTD against a control run; writes report.html and prints its path."""
    opts = make_options(part, rate, before_s, after_s, moves, rebalance, warmup_s, phase_s, port_base, network)
    h = Path(home).resolve() if home else resolve_home(DEFAULT_HOME.parent / "demo")
    out = out or REPO_ROOT / "results" / "demo" / time.strftime("%Y%m%d-%H%M%S")
    result = run_demo(h, opts, out, click.echo, keep=keep)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
