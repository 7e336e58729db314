"""One Java command line, run once: argv building, the timeout, and a failed exit turned into one clear
error line. Pure except `run`."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field

from pycontrol.errors import UserError
from pycontrol.jvm.java import find_java


class JvmError(UserError):
    """A Java program could not be started, ran past its timeout, or exited with a failure."""


@dataclass(frozen=True)
class JavaCommand:
    """`java OPTIONS -cp CLASSPATH MAIN ARGS`, or `java OPTIONS -jar MAIN ARGS` when `jar`."""
    main: str                                   # a main class, or the jar's path when `jar`
    args: tuple[str, ...] = ()
    classpath: tuple[str, ...] = ()             # entries in order; "dir/*" for every jar of a directory
    options: tuple[str, ...] = ()               # JVM options: -Xmx..., -Dkey=value
    jar: bool = False
    what: str = ""                              # names the program in errors ("the planner")

    def argv(self, java: str) -> list[str]:
        if self.jar and self.classpath:
            raise ValueError("a -jar command takes its classpath from the jar's manifest")
        head = ["-jar", self.main] if self.jar else ["-cp", ":".join(self.classpath), self.main]
        return [java, *self.options, *head, *self.args]

    @property
    def name(self) -> str:
        return self.what or self.main.rsplit("/", 1)[-1].rsplit(".", 1)[-1]


@dataclass(frozen=True)
class ExitCodes:
    """What a program's exit codes mean beyond 0: code -> short meaning, for error messages."""
    meanings: dict[int, str] = field(default_factory=dict)

    def describe(self, code: int) -> str:
        meaning = self.meanings.get(code)
        if code < 0:
            return f"killed by signal {-code}"
        return f"exit {code}: {meaning}" if meaning else f"exit {code}"


def last_lines(text: str, n: int = 3) -> list[str]:
    return [line for line in (text or "").splitlines() if line.strip()][-n:]


def failure_message(cmd: JavaCommand, done: subprocess.CompletedProcess, codes: ExitCodes = ExitCodes(),
                    lines: int = 3) -> str:
    """One line for a failed run: the program, what its exit code means, and its last stderr lines
    (stdout's when stderr is empty). Pure."""
    tail = last_lines(done.stderr, lines) or last_lines(done.stdout, lines)
    return f"{cmd.name} failed ({codes.describe(done.returncode)}): {' / '.join(tail) or 'no output'}"


def run(cmd: JavaCommand, timeout_s: float | None, timeout_hint: str = "", capture_stderr: bool = True,
        java: str | None = None) -> subprocess.CompletedProcess:
    """Runs the command to its end; a JvmError if it cannot start or outlives `timeout_s` (then it is
    killed; None waits as long as it runs). The exit code is the caller's to read: see `failure_message`."""
    argv = cmd.argv(java or find_java())
    try:
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE if capture_stderr else None,
                              text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        hint = f" ({timeout_hint})" if timeout_hint else ""
        raise JvmError(f"{cmd.name} took longer than {timeout_s:g} s and was stopped{hint}") from e
    except OSError as e:
        raise JvmError(f"cannot run {cmd.name}: {e}") from e
