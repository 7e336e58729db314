"""The migration schemes compared, the benchmark's options, and which clusters run what. Pure.

Sync cycles on this cluster: T_W is the worker's plan-store poll (`nonstop.migration.worker.sync.ms`,
plus an inotify push unless `nonstop.migration.push` is false). T_S, the paper's supervisor cycle to
fetch the global plan, is here Nimbus's scheduling round (`nimbus.monitor.freq.secs`, whole seconds):
the plan-following scheduler reads the plan znode once per round and Nimbus pushes the resulting
assignment to the supervisors at once (their own 10 s poll is Storm's hard-coded back-up).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pycontrol.bench.order import rotated
from pycontrol.cluster.storm_conf import LOCAL_SCHEDULER_CONF, NONSTOP_SCHEDULER
from pycontrol.errors import UserError

ENABLED = "nonstop.migration.enabled"
T_W_KEY = "nonstop.migration.worker.sync.ms"
PUSH = "nonstop.migration.push"
D_K = "nonstop.migration.lazy.kill.ms"
T_S_KEY = "nimbus.monitor.freq.secs"

# How a scheme turns the driver's moves into a new placement.
BY_PLAN = "plan"            # plan znode -> plan-following scheduler (nonstop or stock supervisors)
BY_REBALANCE = "rebalance"  # Storm's rebalance command through the UI REST API (Nimbus thrift)
NO_MOVES = "none"


@dataclass(frozen=True)
class Scheme:
    name: str
    migration: bool                                   # the agent in Nimbus, supervisors and workers
    conf: tuple[tuple[str, Any], ...] = ()            # extra storm.yaml keys of its cluster
    realize: str = BY_PLAN
    about: str = ""

    @property
    def extra_conf(self) -> dict[str, Any]:
        return dict(self.conf)

    @property
    def nonstop(self) -> bool:
        """Executors move as threads (the workers write migration events)."""
        return self.migration and self.extra_conf.get(ENABLED, True) is not False

    @property
    def stock(self) -> bool:
        """No agent in any JVM of its cluster (the runner checks the running JVMs)."""
        return not self.migration

    @property
    def uses_m(self) -> bool:
        """Rebalance places the whole topology from scratch: M does not change what it does."""
        return self.realize == BY_PLAN


BASELINE = Scheme("baseline", migration=False, realize=NO_MOVES,
                  about="stock Storm 2.8.3, no agent in any JVM, Storm's own scheduler; nothing moves")
REBALANCE = Scheme("rebalance", migration=False, realize=BY_REBALANCE,
                   about="stock Storm 2.8.3, no agent in any JVM, Storm's own scheduler: Storm's rebalance "
                         "command every period, the topology deactivated for the rebalance wait, then placed "
                         "again from scratch by Storm's scheduler")
# Stock Storm whose only addition is the plan-following scheduler (a plain IScheduler plugin in Nimbus),
# so that the driver's plan becomes Nimbus's assignment; supervisors and workers do what stock Storm does
# with a changed assignment. The demo's "stock" way is this scheme.
WORKER_RESTART = Scheme("worker-restart", migration=False,
                        conf=(("storm.scheduler", NONSTOP_SCHEDULER), *LOCAL_SCHEDULER_CONF.items()),
                        about="stock Storm 2.8.3, no agent in any JVM; the suite's plan-following scheduler "
                              "(an IScheduler plugin) in Nimbus turns the driver's plan into the new assignment "
                              "and the supervisors kill and relaunch every worker whose executors change "
                              "(Storm*, T-Storm style)")
NONSTOP = Scheme("nonstop", migration=True, conf=((D_K, 0), (PUSH, False)),
                 about="the agent in Nimbus, supervisors and workers: thread-level migration without lazy kill, "
                       "default cycles (T_W poll only)")
# Tuned: Nimbus's round (T_S) at its 1 s minimum. The round is most of plan-to-effect: at the local
# cluster's 2 s the scheduler decided 1.5 s after the plan was written on average.
NONSTOP_PLUS = Scheme("nonstop+", migration=True, conf=((D_K, 2000), (PUSH, True), (T_S_KEY, 1)),
                      about="the agent in Nimbus, supervisors and workers: thread-level migration with lazy kill "
                            "D_K = 2 s, push sync and T_S = 1 s")
MOVING = {s.name: s for s in (REBALANCE, WORKER_RESTART, NONSTOP, NONSTOP_PLUS)}


def sweep_scheme(t_s_secs: int, t_w_secs: float) -> Scheme:
    """nonstop+ (lazy kill) with polling only, at these cycles: the paper's T_S/T_W experiment."""
    return Scheme(f"sweep-ts{t_s_secs:g}-tw{t_w_secs:g}", migration=True,
                  conf=((T_S_KEY, t_s_secs), (D_K, 2000), (PUSH, False), (T_W_KEY, int(round(t_w_secs * 1000)))),
                  about=f"nonstop+ without push, T_S = {t_s_secs:g} s (Nimbus round), "
                        f"T_W = {t_w_secs:g} s (worker poll)")


def parse_schemes(text: str) -> tuple[Scheme, ...]:
    names = [n.strip() for n in (text or "").split(",") if n.strip()]
    if not names:
        raise UserError(f"--schemes needs at least one of {', '.join(MOVING)} (or all)")
    if names == ["all"]:
        return tuple(MOVING.values())
    unknown = [n for n in names if n not in MOVING]
    if unknown:
        raise UserError(f"unknown scheme(s) {', '.join(unknown)}; choose from {', '.join(MOVING)} (or all)")
    if len(set(names)) != len(names):
        raise UserError(f"--schemes names a scheme twice: {text}")
    return tuple(MOVING[n] for n in names)


def parse_moves(text: str) -> tuple[int, ...]:
    try:
        ms = [int(x) for x in (text or "").split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--moves must be a comma-separated list of whole numbers like 1,2,4, got '{text}'") from None
    if not ms:
        raise UserError("--moves needs at least one value")
    if any(m < 1 for m in ms):
        raise UserError(f"--moves values must be at least 1, got {text}")
    if len(set(ms)) != len(ms):
        raise UserError(f"--moves lists a value twice: {text}")
    return tuple(ms)


def parse_sweep(text: str | None) -> tuple[tuple[int, float], ...]:
    """"10:3,3:1" -> ((10, 3.0), (3, 1.0)): T_S in whole seconds (Nimbus's round), T_W in seconds."""
    if not text:
        return ()
    pairs = []
    for item in text.split(","):
        ts_text, sep, tw_text = item.strip().partition(":")
        try:
            ts, tw = int(ts_text), float(tw_text)
        except ValueError:
            ts, tw = None, None
        if not sep or ts is None or ts < 1 or not 0.001 <= tw <= 600:
            raise UserError(f"--sweep takes T_S:T_W pairs in seconds (T_S a whole number >= 1, T_W >= 0.001), "
                            f"e.g. 10:3,3:1; got '{item.strip()}'")
        pairs.append((ts, tw))
    if len(set(pairs)) != len(pairs):
        raise UserError(f"--sweep lists a setting twice: {text}")
    return tuple(pairs)


@dataclass(frozen=True)
class Options:
    duration_s: int
    period_s: int
    moves: tuple[int, ...]
    schemes: tuple[Scheme, ...]
    sweep: tuple[tuple[int, float], ...] = ()
    rate: int = 400
    seed: int = 1
    rebalance_wait_s: int = 15
    quick: bool = False
    repeat: int = 3          # every cluster run this many times, the order rotated between repetitions
    move_spouts: bool = False  # the driver also moves the spout's and the ackers' executors

    def command(self) -> str:
        """The command line that runs these options (every option spelt out, so the defaults of the day
        need not be known to repeat the run)."""
        parts = ["pycontrol bench migration", *(["--quick"] if self.quick else []),
                 f"--schemes {','.join(s.name for s in self.schemes)}", f"--moves {','.join(map(str, self.moves))}",
                 f"--duration {self.duration_s}", f"--period {self.period_s}", f"--rate {self.rate}",
                 f"--rebalance-wait {self.rebalance_wait_s}", f"--repeat {self.repeat}", f"--seed {self.seed}",
                 *(["--move-spouts"] if self.move_spouts else []),
                 *([f"--sweep {','.join(f'{ts}:{tw:g}' for ts, tw in self.sweep)}"] if self.sweep else [])]
        return " ".join(parts)

    def move_offsets(self) -> list[int]:
        """Seconds after a segment's start at which the driver moves: every period, none at the start
        (a stable stretch first) and the last a full period before the end (time to recover)."""
        return list(range(self.period_s, self.duration_s, self.period_s))


QUICK = {"duration_s": 120, "period_s": 30, "moves": (1, 4)}
MAX_REPEAT = 20
FULL = {"duration_s": 600, "period_s": 60, "moves": (1, 2, 4, 8, 16)}


def make_options(quick: bool, schemes: str, moves: str | None, duration_s: int | None, period_s: int | None,
                 sweep: str | None, rate: int, seed: int, rebalance_wait_s: int | None, repeat: int = 3,
                 move_spouts: bool = False) -> Options:
    """The user's flags over the quick or full defaults, checked."""
    base = QUICK if quick else FULL
    duration = base["duration_s"] if duration_s is None else duration_s
    period = base["period_s"] if period_s is None else period_s
    ms = base["moves"] if moves is None else parse_moves(moves)
    if period < 5:
        raise UserError(f"--period must be at least 5 s (a move takes seconds to settle), got {period}")
    if duration < 2 * period:
        raise UserError(f"--duration ({duration} s) must be at least twice --period ({period} s): the first move "
                        f"comes one period in and the last needs a period to settle")
    if rate < 1:
        raise UserError(f"--rate must be a positive number of sentences per second, got {rate}")
    # Storm's own wait is the message timeout (30 s, what the paper saw); a wait longer than the
    # period would overlap the next rebalance.
    wait = min(30, period // 2) if rebalance_wait_s is None else rebalance_wait_s
    if not 0 <= wait < period:
        raise UserError(f"--rebalance-wait must be between 0 and the period ({period} s), got {wait}")
    if not 1 <= repeat <= MAX_REPEAT:
        raise UserError(f"--repeat must be between 1 and {MAX_REPEAT}, got {repeat}")
    return Options(duration_s=duration, period_s=period, moves=ms, schemes=parse_schemes(schemes),
                   sweep=parse_sweep(sweep), rate=rate, seed=seed, rebalance_wait_s=wait, quick=quick,
                   repeat=repeat, move_spouts=move_spouts)


@dataclass(frozen=True)
class Segment:
    """One measured stretch of a run: `duration_s` of the workload with this scheme's moves of M executors."""
    scheme: Scheme
    m: int | None


@dataclass(frozen=True)
class ClusterRun:
    """One fresh cluster; its segments run back to back on one submission of the word count."""
    name: str
    migration: bool
    conf: tuple[tuple[str, Any], ...]
    segments: tuple[Segment, ...] = field(default=())


def plan_runs(opts: Options) -> tuple[ClusterRun, ...]:
    """Stock Storm first (the baseline, then rebalance: same cluster settings), then one cluster per
    plan-following scheme (a segment per M), then one per sweep setting (at the largest M, as the paper)."""
    stock = [Segment(BASELINE, None)]
    if REBALANCE in opts.schemes:
        stock.append(Segment(REBALANCE, None))
    runs = [ClusterRun("stock", False, (), tuple(stock))]
    sweeps = [sweep_scheme(ts, tw) for ts, tw in opts.sweep]
    for s in [*(s for s in opts.schemes if s.uses_m), *sweeps]:
        ms = opts.moves if s in opts.schemes else (max(opts.moves),)
        runs.append(ClusterRun(s.name, s.migration, s.conf, tuple(Segment(s, m) for m in ms)))
    return tuple(runs)


def repetitions(runs: tuple[ClusterRun, ...], repeat: int) -> tuple[tuple[int, ClusterRun], ...]:
    """(repetition, run) in the order they run: every run once per repetition, each repetition's order
    rotated by one, so no scheme always runs first (on a cold machine) or last (after the others)."""
    return tuple((i, run) for i in range(repeat) for run in rotated(runs, i))
