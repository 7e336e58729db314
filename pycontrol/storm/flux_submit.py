"""Flux YAML topologies: `storm jar DEPS.jar org.apache.storm.flux.Flux --remote FILE.yaml [--filter PROPS]`.

Storm's Flux (flux-core, flux-wrappers and their two libraries, in build/dist/flux) builds and submits
the topology; property substitution (`${key}` from the --filter properties file) is Flux's. The
uploaded jar is the user's dependency jar (their classes and `resources/`) with flux-wrappers added,
since workers instantiate Flux's shell wrappers (FluxShellBolt, FluxShellSpout) from it.

Before that, the file is checked here so that a wrong component name is one line, not a Nimbus
InvalidTopologyException: every stream's `from`/`to` must be a spout or bolt and every `ref` a
component (after the same substitution, when a properties file is given).
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from pathlib import Path

import yaml

from pycontrol import paths
from pycontrol.errors import UserError
from pycontrol.storm import jar_submit

FLUX_MAIN = "org.apache.storm.flux.Flux"
FLUX_DIR = "flux"
WRAPPERS_PREFIX = "flux-wrappers-"
_PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")


def read_properties(path: Path) -> dict[str, str]:
    """A Java properties file's `key=value` / `key: value` lines (comments and blanks skipped)."""
    if not path.is_file():
        raise UserError(f"no such properties file: {path}")
    props = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#!":
            continue
        m = re.match(r"([^=:\s]+)\s*[=:]?\s*(.*)", line)
        if m:
            props[m.group(1)] = m.group(2)
    return props


def substitute(text: str, props: dict[str, str]) -> str:
    """`${key}` replaced by props[key] where it is defined, as Flux's filter does."""
    return _PLACEHOLDER.sub(lambda m: props.get(m.group(1), m.group(0)), text)


def _refs(node) -> list[str]:
    if isinstance(node, dict):
        out = [node["ref"]] if isinstance(node.get("ref"), str) and len(node) == 1 else []
        for v in node.values():
            out += _refs(v)
        return out
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def check_flux(path: Path, props: dict[str, str] | None = None) -> dict:
    """The parsed topology definition, or a one-line UserError naming what is wrong."""
    if not path.is_file():
        raise UserError(f"no such Flux file: {path}")
    try:
        doc = yaml.safe_load(substitute(path.read_text(), props or {}))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise UserError(f"{path}{where}: not YAML: {getattr(e, 'problem', e)}") from e
    if not isinstance(doc, dict) or not doc.get("name"):
        raise UserError(f"{path}: a Flux topology needs a 'name'")
    if doc.get("includes") or doc.get("topologySource"):
        return doc  # parts defined elsewhere: Flux checks them
    nodes = [c.get("id") for c in (doc.get("spouts") or []) + (doc.get("bolts") or []) if isinstance(c, dict)]
    components = [c.get("id") for c in doc.get("components") or [] if isinstance(c, dict)]
    for s in doc.get("streams") or []:
        for end in ("from", "to"):
            if s.get(end) not in nodes:
                raise UserError(f"{path}: stream {s.get('from')} -> {s.get('to')}: no spout or bolt "
                                f"'{s.get(end)}' (spouts and bolts: {', '.join(map(str, nodes))})")
    for ref in _refs({k: v for k, v in doc.items() if k != "streams"}):
        if ref not in components:
            raise UserError(f"{path}: ref '{ref}' names no component (components: {', '.join(map(str, components))})")
    return doc


def flux_jars(dist: Path) -> list[Path]:
    jars = sorted((dist / FLUX_DIR).glob("*.jar"))
    if not any(j.name.startswith(WRAPPERS_PREFIX) for j in jars):
        raise UserError(f"{dist / FLUX_DIR} has no Flux jars: build them with `mvn -q -DskipTests package`")
    return jars


def topology_jar(deps_jar: Path | None, wrappers: Path, out: Path) -> Path:
    """The jar to upload: the user's dependency jar (it wins on duplicates) plus flux-wrappers."""
    seen = set()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for source in [deps_jar, wrappers] if deps_jar else [wrappers]:
            try:
                with zipfile.ZipFile(source) as zin:
                    for item in zin.infolist():
                        if item.filename not in seen:
                            seen.add(item.filename)
                            zout.writestr(item, zin.read(item.filename))
            except (zipfile.BadZipFile, OSError) as e:
                raise UserError(f"{source} is not a jar: {e}") from e
    return out


def submit_flux(flux_file: Path, conf_dir: Path, filter_file: Path | None = None, deps_jar: Path | None = None,
                python: str | None = None, settings: list[str] | None = None) -> str:
    flux_file = flux_file.resolve()
    props = read_properties(filter_file) if filter_file else None
    doc = check_flux(flux_file, props)
    if deps_jar is not None and not deps_jar.is_file():
        raise UserError(f"no such jar: {deps_jar}")
    jars = flux_jars(paths.require_dist())
    wrappers = next(j for j in jars if j.name.startswith(WRAPPERS_PREFIX))
    args = ["--remote", "--no-splash", "--no-detail", str(flux_file)]
    if filter_file:
        args[-1:-1] = ["--filter", str(filter_file.resolve())]
    with tempfile.TemporaryDirectory(prefix="pycontrol-flux-") as tmp:
        jar = topology_jar(deps_jar, wrappers, Path(tmp) / "flux-topology.jar")
        jar_submit.submit_jar(jar, FLUX_MAIN, args, conf_dir, python, settings,
                              extra_cp=tuple(str(j) for j in jars), check=False)
    return f"submitted {doc['name']}"
