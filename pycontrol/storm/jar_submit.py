"""`storm jar` without bin/storm: run a user's topology jar's main class against a cluster.

What Storm's launcher does, and so what this does: the jar goes on the client's classpath next to
Storm's worker libraries, `storm.jar` names it (StormSubmitter uploads that file), the client conf
names the target cluster, and `storm.options` carries conf entries that StormSubmitter merges into
the topology's conf (after the main class's own). The jar's `resources/` directory becomes each
worker's code dir, so multilang scripts in it run as they do under `storm jar`.

The Python interpreter that multilang components start: components name a command (`python`,
`python3`), which the worker resolves on its PATH; the topology's `topology.environment` puts the
chosen interpreter's directory first on that PATH.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import zipfile
from pathlib import Path
from urllib.parse import quote_plus

from pycontrol import paths
from pycontrol.errors import UserError
from pycontrol.jvm import storm_client
from pycontrol.jvm.command import JavaCommand, run
from pycontrol.storm import nimbus_errors
from pycontrol.storm.submit import parse_settings

log = logging.getLogger(__name__)

# Appended after the interpreter's directory: a worker's PATH is replaced, not extended, by
# topology.environment, and multilang commands may also need the usual system tools.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def default_python() -> str:
    """The interpreter pycontrol runs under (it has streamparse), as for the built-in topologies."""
    return sys.executable


def check_jar(jar: Path, main_class: str) -> None:
    """A readable jar that contains `main_class`, else a one-line UserError."""
    if not jar.is_file():
        raise UserError(f"no such jar: {jar}")
    if not main_class or any(not part.isidentifier() for part in main_class.split(".")):
        raise UserError(f"--class must be a Java class name like com.example.Main, got '{main_class}'")
    try:
        with zipfile.ZipFile(jar) as z:
            names = set(z.namelist())
    except (zipfile.BadZipFile, OSError) as e:
        raise UserError(f"{jar} is not a jar: {e}") from e
    if main_class.replace(".", "/") + ".class" not in names:
        raise UserError(f"class {main_class} is not in {jar}")


def python_conf(python: str) -> dict:
    """Topology conf that makes multilang components' `python`/`python3` the given interpreter."""
    if not os.path.isabs(python):
        raise UserError(f"--python must be an absolute path (it is run on the worker hosts), got '{python}'")
    return {"topology.environment": {"PATH": f"{os.path.dirname(python)}:{SYSTEM_PATH}"}}


def storm_options(conf: dict) -> str:
    """`-Dstorm.options` value: comma-separated, each `key=json` URL-encoded (Utils.readCommandLineOpts)."""
    items = []
    for key, value in conf.items():
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        items.append(quote_plus(f"{key}={text}"))
    return ",".join(items)


def settings_conf(settings: list[str]) -> dict:
    """`--set key=value` entries as conf; values parse as JSON where they can (numbers, lists)."""
    conf = {}
    for s in parse_settings(settings):
        key, _, value = s.partition("=")
        try:
            conf[key.strip()] = json.loads(value)
        except ValueError:
            conf[key.strip()] = value
    return conf


def client_command(jar: Path, main_class: str, args: list[str], conf_dir: Path, dist: Path,
                   conf: dict, extra_cp: tuple[str, ...] = ()) -> JavaCommand:
    return storm_client.command(jar, main_class, args, conf_dir, dist, storm_options(conf) if conf else None,
                                extra_cp)


def client_argv(java: str, jar: Path, main_class: str, args: list[str], conf_dir: Path, dist: Path,
                conf: dict, extra_cp: tuple[str, ...] = ()) -> list[str]:
    return client_command(jar, main_class, args, conf_dir, dist, conf, extra_cp).argv(java)


def failure_line(main_class: str, stderr: str, returncode: int) -> str:
    """One line for a client that failed: the exception the main class ended with (its root cause)."""
    lines = [ln.strip() for ln in stderr.splitlines()]
    for i, ln in enumerate(lines):
        if ln.startswith('Exception in thread "main"'):
            cause = ln.removeprefix('Exception in thread "main"').strip()
            for later in lines[i + 1:]:
                if later.startswith("Caused by:"):
                    cause = later.removeprefix("Caused by:").strip()
            return f"{main_class} failed: {cause}"
        if ln.startswith("Error: "):  # the launcher's own (no main method, class not loadable)
            return f"{main_class}: {ln.removeprefix('Error: ')}"
    tail = [ln for ln in lines if ln]
    return f"{main_class} exited with code {returncode}" + (f": {tail[-1]}" if tail else "")


def submit_jar(jar: Path, main_class: str, args: list[str], conf_dir: Path, python: str | None = None,
               settings: list[str] | None = None, timeout_s: float = 180, extra_cp: tuple[str, ...] = (),
               check: bool = True) -> str:
    """Run `main_class` from `jar` as `storm jar` would; returns the client's last output line.
    `extra_cp`: client-only classpath entries (not uploaded); `check`: whether the class must be in the jar."""
    jar = jar.resolve()
    if check:
        check_jar(jar, main_class)
    conf = settings_conf(settings or [])
    conf.update(python_conf(python or default_python()))
    cmd = client_command(jar, main_class, list(args), conf_dir, paths.require_dist(), conf, extra_cp)
    log.debug("client: %s", cmd)
    p = run(cmd, timeout_s, timeout_hint="is Nimbus up? does main() return after submitting?")
    log.debug("client output:\n%s\n%s", p.stdout, p.stderr)
    if p.returncode != 0:
        raise UserError(nimbus_errors.explain(failure_line(main_class, p.stderr, p.returncode)))
    lines = p.stdout.strip().splitlines()
    return lines[-1] if lines else f"ran {main_class} from {jar.name}"
