"""Performance models of tasks (seed 002 §5): τ threads on ONE slot -> (peak rate, CPU, memory).

Units: rates in tuples/s; CPU and memory as fractions of one slot (1.0 = one core / the slot's
memory quantum), measured as the increment above the idle base load.

A `TableModel` holds the measured rows and answers the paper's functions:
    I(q)  peak_rate(q)    peak stable input rate with q threads
    C(q)  cpu(q)          CPU used by q threads at that rate
    M(q)  memory(q)       memory used by q threads at that rate
    T(ω)  threads_for(ω)  smallest q with I(q) >= ω
    ω̂     best_rate       max_q I(q);   τ̂ bundle_threads = T(ω̂) (the smallest such q)
Between measured thread counts the values are interpolated linearly (the paper says only
"interpolate"; linear is our choice). Beyond the last measured count they are held flat: the
allocators never go there, but a mapping may put more threads on a slot than were measured.
Every table needs a row for 1 thread (LSA and MBA both use I(1), C(1), M(1)).

A `StaticModel` is a fixed allocation whatever the rate (the paper's source and sink).

File format (YAML or JSON; these keys are all there is):

    models:
      azure_blob:                          # the name DAG tasks refer to
        description: free text             # optional
        rows:                              # one per measured thread count, any order
          - {threads: 1, rate: 2, cpu: 0.0674, memory: 0.2392}
          - {threads: 50, rate: 30, cpu: 0.5, memory: 0.4,
             origin: {rate: stated, cpu: chosen, memory: chosen}}     # optional provenance
      source:
        static: {threads: 1, cpu: 0.10, memory: 0.15}

`origin` tags say where a value comes from: `stated` (the paper's text gives it), `derived`
(arithmetic on the paper's numbers), `calibrated` (chosen so that a published aggregate comes
out), `chosen` (our fill-in for a value only the paper's lost plots held), `measured` (profiled
on a real cluster by `pycontrol model build`, see `pycontrol.profiling`; such files also carry
top-level `machine` and `measurements` keys, which this reader ignores). The built-in set,
`paper_models()`, is `pycontrol/sizing/data/paper_models.yaml`, tagged that way throughout.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from pycontrol.sizing._fileformat import (expect_list, expect_mapping, expect_number,
                                          expect_positive_int, read_document)
from pycontrol.sizing.errors import SizingError

ORIGINS = ("stated", "derived", "calibrated", "chosen", "measured")
_VALUE_FIELDS = ("rate", "cpu", "memory")
# Relative slack for comparing rates: keeps float noise (0.1 + 0.2 ...) from adding a thread.
_TOLERANCE = 1e-9


def at_least(value: float, bound: float) -> bool:
    """value >= bound, forgiving float round-off."""
    return value >= bound - _TOLERANCE * max(1.0, abs(bound))


@dataclass(frozen=True)
class ModelRow:
    threads: int
    rate: float
    cpu: float
    memory: float
    origin: Mapping[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TableModel:
    """Measured rows τ -> (ω, c, m), sorted by τ, the first one for τ = 1."""

    name: str
    rows: tuple[ModelRow, ...]
    description: str = ""

    def __post_init__(self) -> None:
        if not self.rows:
            raise SizingError(f"model {self.name!r}: has no rows")
        counts = [r.threads for r in self.rows]
        if counts != sorted(set(counts)):
            raise SizingError(f"model {self.name!r}: rows must have distinct thread counts in "
                              f"increasing order, got {counts}")
        if counts[0] != 1:
            raise SizingError(f"model {self.name!r}: needs a row for 1 thread (LSA and MBA use "
                              f"I(1), C(1), M(1)); first row is for {counts[0]}")
        for r in self.rows:
            if not r.rate > 0 or r.cpu < 0 or r.memory < 0:
                raise SizingError(f"model {self.name!r}: row for {r.threads} threads needs "
                                  f"rate > 0 and cpu, memory >= 0")

    @cached_property
    def _counts(self) -> list[int]:
        return [r.threads for r in self.rows]

    @property
    def max_threads(self) -> int:
        return self.rows[-1].threads

    def _value(self, q: int, attr: str) -> float:
        if isinstance(q, bool) or not isinstance(q, int) or q < 1:
            raise ValueError(f"thread count must be a whole number >= 1, got {q!r}")
        if q >= self.max_threads:
            return getattr(self.rows[-1], attr)
        i = bisect.bisect_right(self._counts, q) - 1
        lo, hi = self.rows[i], self.rows[i + 1]
        if lo.threads == q:
            return getattr(lo, attr)
        share = (q - lo.threads) / (hi.threads - lo.threads)
        return getattr(lo, attr) + share * (getattr(hi, attr) - getattr(lo, attr))

    def peak_rate(self, q: int) -> float:
        """I(q)."""
        return self._value(q, "rate")

    def cpu(self, q: int) -> float:
        """C(q)."""
        return self._value(q, "cpu")

    def memory(self, q: int) -> float:
        """M(q)."""
        return self._value(q, "memory")

    @cached_property
    def best_rate(self) -> float:
        """ω̂ = max_q I(q); a piecewise-linear curve peaks at a measured row."""
        return max(r.rate for r in self.rows)

    @cached_property
    def bundle_threads(self) -> int:
        """τ̂ = T(ω̂): threads of one full bundle (smallest count reaching ω̂)."""
        return self.threads_for(self.best_rate)

    def threads_for(self, rate: float) -> int:
        """T(ω): smallest q with I(q) >= ω on the interpolated curve; ω must be in (0, ω̂]."""
        if not rate > 0:
            raise ValueError(f"T(ω) needs ω > 0, got {rate!r}")
        if not at_least(self.best_rate, rate):
            raise ValueError(f"model {self.name!r}: {rate:g} t/s exceeds one slot's best rate "
                             f"{self.best_rate:g} t/s")
        for q in range(1, self.max_threads + 1):
            if at_least(self.peak_rate(q), rate):
                return q
        raise AssertionError("unreachable: the best rate is reached at a measured row")


@dataclass(frozen=True)
class StaticModel:
    """A fixed allocation, independent of the input rate (source and sink in the paper)."""

    name: str
    threads: int
    cpu: float
    memory: float
    description: str = ""
    origin: Mapping[str, str] = field(default_factory=dict, compare=False)


TaskModel = TableModel | StaticModel


class ModelSet(Mapping[str, TaskModel]):
    """Models by name. `require` gives a clear error for a name it lacks."""

    def __init__(self, models: Mapping[str, TaskModel] | None = None, origin: str = "models"):
        self._models = dict(models or {})
        self.origin = origin

    def __getitem__(self, name: str) -> TaskModel:
        return self._models[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._models)

    def __len__(self) -> int:
        return len(self._models)

    def require(self, name: str, *, task: str | None = None) -> TaskModel:
        try:
            return self._models[name]
        except KeyError:
            who = f"task {task!r} uses model {name!r}" if task else f"model {name!r}"
            raise SizingError(f"{who}, which {self.origin} does not define "
                              f"(known: {', '.join(sorted(self._models)) or 'none'})") from None

    def merged(self, other: ModelSet) -> ModelSet:
        """This set with `other`'s models added, replacing same-named ones."""
        return ModelSet({**self._models, **other._models}, origin=f"{self.origin} + {other.origin}")


# --- reading ------------------------------------------------------------------------------------

def parse_models(data: Any, *, origin: str = "models") -> ModelSet:
    doc = expect_mapping(data, origin, required=("models",))
    entries = expect_mapping(doc["models"], f"{origin}: models")
    if not entries:
        raise SizingError(f"{origin}: defines no models")
    models: dict[str, TaskModel] = {}
    for name, raw in entries.items():
        models[name] = _parse_model(name, raw, f"{origin}: model {name!r}")
    return ModelSet(models, origin=origin)


def _parse_model(name: str, raw: Any, where: str) -> TaskModel:
    spec = expect_mapping(raw, where, allowed=("description", "rows", "static"))
    description = spec.get("description", "") or ""
    if ("rows" in spec) == ("static" in spec):
        raise SizingError(f"{where}: needs exactly one of 'rows' (a measured table) or 'static'")
    if "static" in spec:
        s = expect_mapping(spec["static"], f"{where}.static", required=("cpu", "memory"),
                           allowed=("threads", "origin"))
        return StaticModel(
            name=name,
            threads=expect_positive_int(s.get("threads", 1), f"{where}.static.threads"),
            cpu=expect_number(s["cpu"], f"{where}.static.cpu"),
            memory=expect_number(s["memory"], f"{where}.static.memory"),
            description=description,
            origin=_parse_origin(s.get("origin"), f"{where}.static.origin", ("cpu", "memory")))
    rows = []
    for i, raw_row in enumerate(expect_list(spec["rows"], f"{where}.rows")):
        at = f"{where}.rows[{i}]"
        r = expect_mapping(raw_row, at, required=("threads", *_VALUE_FIELDS), allowed=("origin",))
        rows.append(ModelRow(
            threads=expect_positive_int(r["threads"], f"{at}.threads"),
            rate=expect_number(r["rate"], f"{at}.rate", strict=True),
            cpu=expect_number(r["cpu"], f"{at}.cpu"),
            memory=expect_number(r["memory"], f"{at}.memory"),
            origin=_parse_origin(r.get("origin"), f"{at}.origin", _VALUE_FIELDS)))
    rows.sort(key=lambda r: r.threads)
    try:
        return TableModel(name=name, rows=tuple(rows), description=description)
    except SizingError as err:
        raise SizingError(f"{where}: {err}") from None


def _parse_origin(raw: Any, where: str, fields: tuple[str, ...]) -> Mapping[str, str]:
    if raw is None:
        return {}
    tags = expect_mapping(raw, where, allowed=fields)
    for key, tag in tags.items():
        if tag not in ORIGINS:
            raise SizingError(f"{where}.{key}: origin must be one of {', '.join(ORIGINS)}, "
                              f"got {tag!r}")
    return dict(tags)


def load_models(path: Path) -> ModelSet:
    return parse_models(read_document(path), origin=str(path))


@cache
def paper_models() -> ModelSet:
    """The five modelled tasks of seed 002 plus its source and sink (see the data file)."""
    resource = resources.files("pycontrol.sizing").joinpath("data", "paper_models.yaml")
    with resources.as_file(resource) as path:
        return parse_models(read_document(path), origin="the built-in paper models")


def model_catalog(models_file: Path | None = None) -> ModelSet:
    """The built-in paper models, with a user file's models added or replacing same-named ones."""
    base = paper_models()
    return base.merged(load_models(models_file)) if models_file else base


def origin_counts(models: ModelSet) -> dict[str, int]:
    """How many model values carry each origin tag (unknown = untagged)."""
    counts = {tag: 0 for tag in (*ORIGINS, "unknown")}
    for m in models.values():
        if isinstance(m, StaticModel):
            tagged = [m.origin.get(f, "unknown") for f in ("cpu", "memory")]
        else:
            tagged = [r.origin.get(f, "unknown") for r in m.rows for f in _VALUE_FIELDS]
        for tag in tagged:
            counts[tag] += 1
    return counts
