"""Key streams for the grouping simulator and the Storm experiment: files of keys, one per line.

- Brown corpus words: the prepared sentences (pycontrol.workloads.corpus) split exactly as the word
  counts split them, in corpus order (natural skew: "the" is about 6 % of the words).
- Replay files (pycontrol trace prepare, PySpark): the events' keys in replay order.
Zipf streams need no file: the simulator draws them itself (seeded).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pycontrol import paths
from pycontrol.errors import UserError
from pycontrol.traces.errors import TraceError
from pycontrol.traces.replay import REPLAY_FILE, read_replay
from pycontrol.workloads import corpus

WORDS_FILE = "brown-words.txt"


def words_of(sentences: list[str]) -> list[str]:
    """Lower-cased words separated by ASCII whitespace (topologies/common/words.py, the word counts' split)."""
    if str(paths.REPO_ROOT) not in sys.path:
        sys.path.append(str(paths.REPO_ROOT))
    from topologies.common.words import split_words  # the repository's topologies package
    return [w for s in sentences for w in split_words(s)]


def brown_words_file() -> Path:
    """The Brown corpus as one word per line, built once next to the prepared sentences."""
    target = corpus.cache_dir() / WORDS_FILE
    sentences = corpus.prepare()
    if target.is_file() and target.stat().st_mtime >= sentences.stat().st_mtime:
        return target
    words = words_of(sentences.read_text(encoding="ascii").splitlines())
    partial = target.with_suffix(".partial")
    partial.write_text("\n".join(words) + "\n", encoding="ascii")
    partial.replace(target)
    return target


def _clean_key(key: str) -> str:
    # One key per line: line breaks inside a key would split it, and the simulator strips blanks.
    return key.replace("\r", " ").replace("\n", " ")


def replay_keys_file(replay: Path, dest: Path, limit: int | None = None) -> tuple[Path, int]:
    """The keys of a replay file (or of the replay.ndjson.gz in a `trace prepare` output directory),
    one per line, at most `limit`; returns the file and the number of keys written."""
    source = replay / REPLAY_FILE if replay.is_dir() else replay
    if not source.is_file():
        raise UserError(f"no replay file at {source} (make one with `pycontrol trace prepare`)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    try:
        with dest.open("w", encoding="utf-8") as out:
            for event in read_replay(source):
                if limit is not None and n >= limit:
                    break
                key = _clean_key(event.key)
                if not key.strip():
                    continue  # the simulator skips blank lines; say nothing of keys it cannot represent
                out.write(key + "\n")
                n += 1
    except TraceError as e:
        raise UserError(str(e)) from None
    if n == 0:
        raise UserError(f"{source} has no usable keys")
    return dest, n
