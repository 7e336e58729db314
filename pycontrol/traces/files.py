"""Output files written whole or not at all: a crashed run never leaves a half file that looks done."""

from __future__ import annotations

import csv
import gzip
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterable, Iterator


@contextmanager
def atomic_output(path: Path, *, gz: bool = False) -> Iterator[IO[str]]:
    """Open `path`.tmp for UTF-8 text (gzip if asked); rename it onto `path` on success."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        if gz:
            # level 5: about twice as fast as the default 9 at a few per cent larger files
            f = gzip.open(tmp, "wt", compresslevel=5, encoding="utf-8", newline="")
        else:
            f = open(tmp, "w", encoding="utf-8", newline="")
        with f:
            yield f
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_lines(path: Path, lines: Iterable[str], *, gz: bool = True) -> int:
    """Write each string as one line; the number of lines written."""
    n = 0
    with atomic_output(path, gz=gz) as f:
        for line in lines:
            f.write(line)
            f.write("\n")
            n += 1
    return n


def write_text(path: Path, chunks: Iterable[str], *, gz: bool = True) -> None:
    """Write pre-formatted text chunks as they come (for long series made in bulk)."""
    with atomic_output(path, gz=gz) as f:
        for chunk in chunks:
            f.write(chunk)


def write_csv(path: Path, header: Iterable[str], rows: Iterable[Iterable], *, gz: bool = True) -> int:
    n = 0
    with atomic_output(path, gz=gz) as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(list(header))
        for row in rows:
            w.writerow(list(row))
            n += 1
    return n


def write_json(path: Path, doc) -> None:
    with atomic_output(path) as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
