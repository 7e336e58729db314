"""Finding a Java 17+ runtime (Storm 2.8 needs 17). The version is checked once per binary per process:
the controller starts Java often, and `java -version` is a JVM start of its own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from functools import lru_cache

from pycontrol.errors import UserError

REQUIRED_MAJOR = 17


def find_java() -> str:
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        raise UserError(f"no Java found (JAVA_HOME={home or 'unset'}, none on PATH): install OpenJDK {REQUIRED_MAJOR}")
    major = java_major(java)
    if major < REQUIRED_MAJOR:
        raise UserError(f"{java} is Java {major}; Storm 2.8 needs Java {REQUIRED_MAJOR} or later "
                        f"(set JAVA_HOME to a JDK {REQUIRED_MAJOR})")
    return java


@lru_cache(maxsize=8)
def java_major(java: str) -> int:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        raise UserError(f"cannot run {java}: {e}") from e
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not m:
        raise UserError(f"cannot tell the Java version of {java}: {out.strip()[:200]}")
    major = int(m.group(1))
    return int(m.group(2)) if major == 1 and m.group(2) else major  # "1.8" means 8
