"""Result documents -> sections (pure). The caller lists the files (relative to results/) and parses
them; a file an extractor cannot read becomes a table that says so, and the rest of the report is
still built."""

from __future__ import annotations

import fnmatch
from typing import Iterable, Mapping

from pycontrol.bench.report.headlines import HEADLINES, Headline
from pycontrol.bench.report.meta import run_meta
from pycontrol.bench.report.model import RunMeta, Section, Table
from pycontrol.errors import UserError

UNREADABLE = "unreadable"


def _match(paths: Iterable[str], pattern: str) -> list[str]:
    # fnmatch's * crosses "/", so each pattern is matched segment-count-exactly
    depth = pattern.count("/")
    return sorted(p for p in paths if p.count("/") == depth and fnmatch.fnmatchcase(p, pattern))


def claimed(paths: Iterable[str], headlines: tuple[Headline, ...] = HEADLINES) -> dict[str, tuple]:
    """Which of `paths` the report reads: path -> (headline, source). A path matching two sources goes to
    the first."""
    out: dict[str, tuple] = {}
    paths = list(paths)
    for h in headlines:
        for src in h.sources:
            for p in _match(paths, src.pattern):
                out.setdefault(p, (h, src))
    return out


def unread(paths: Iterable[str], headlines: tuple[Headline, ...] = HEADLINES) -> list[str]:
    paths = list(paths)
    owned = claimed(paths, headlines)
    return sorted(p for p in paths if p not in owned)


def build(docs: Mapping[str, object], figures: Iterable[str] = (),
          headlines: tuple[Headline, ...] = HEADLINES) -> list[Section]:
    """docs: result file (relative to results/) -> parsed JSON; figures: PNG paths relative to results/."""
    owner = claimed(docs, headlines)
    figures = list(figures)
    sections = []
    for h in headlines:
        tables = []
        for path, (head, src) in sorted(owner.items()):
            if head is not h:
                continue
            doc = docs[path]
            try:
                if not isinstance(doc, Mapping):
                    raise UserError("not a JSON object")
                tables.append(Table(path, run_meta(doc, src.command), tuple(src.extract(doc))))
            except (KeyError, TypeError, ValueError, AttributeError, IndexError, UserError) as e:
                tables.append(Table(path, RunMeta(), (), f"{UNREADABLE}: {type(e).__name__}: {e}"))
        figs = tuple(sorted({f for g in h.figures for f in _match(figures, g)}))
        if tables or figs:
            sections.append(Section(h.title, h.about, tuple(tables), figs))
    return sections
