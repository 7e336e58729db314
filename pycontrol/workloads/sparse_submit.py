"""A streamparse project (`topologies/*.py`, `src/`, optional `requirements.txt`) on Storm 2.x, no Leiningen.

The project goes the way the suite's own Python topologies go (pycontrol/workloads/submit.py): its
Topology class is exported to the JSON spec the Java builder reads, and the workloads jar's
`multilang` workload builds and submits it. The difference is the jar: a copy of the workloads jar
whose `resources/` holds the project's `src/` (the code dir of every worker, where
`python -m streamparse.run bolts.x.Bolt` imports the components), instead of the suite's package.

Components must live in `src/` (as in streamparse's own project layout); a topology file is read
here only, not shipped. `requirements.txt` is installed into a virtual environment that extends the
interpreter pycontrol runs under (streamparse included), and the workers run that environment's
python; it is made on this machine, so it serves the local cluster (for others, give `--python`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import logging
import subprocess
import sys
import sysconfig
import tempfile
import venv
import zipfile
from pathlib import Path

from pycontrol import paths
from pycontrol.errors import UserError
from pycontrol.storm import submit as storm_submit
from pycontrol.workloads.spec import export_spec

log = logging.getLogger(__name__)

MULTILANG = "multilang"
RESOURCES = "resources/"


def check_syntax(project: Path) -> None:
    """Compile every .py of the project's topologies/ and src/; the first error as `file:line: msg`."""
    for sub in ("topologies", "src"):
        for py in sorted((project / sub).rglob("*.py")):
            try:
                compile(py.read_bytes(), str(py), "exec")
            except SyntaxError as e:
                raise UserError(f"{py}:{e.lineno}: syntax error: {e.msg}") from e


def topology_file(project: Path, name: str | None) -> Path:
    """topologies/<name>.py; without a name, the project's only topology."""
    if not project.is_dir():
        raise UserError(f"no such project directory: {project}")
    files = {p.stem: p for p in sorted((project / "topologies").glob("*.py")) if p.stem != "__init__"}
    if not files:
        raise UserError(f"{project} is not a streamparse project: no topologies/*.py")
    if name is None:
        if len(files) > 1:
            raise UserError(f"{project} has several topologies, name one: {', '.join(files)}")
        return next(iter(files.values()))
    if name not in files:
        raise UserError(f"{project} has no topology '{name}' (topologies: {', '.join(files)})")
    return files[name]


def load_topology_class(project: Path, path: Path):
    """The one streamparse Topology class defined in `path`, imported with the project's src/ on sys.path."""
    from streamparse import Topology

    src = str((project / "src").resolve())
    module_name = f"_sparse_topology_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, src)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UserError(f"{path}: cannot load: {e.__class__.__name__}: {e}") from e
    finally:
        sys.path.remove(src)
    classes = [c for c in vars(module).values()
               if inspect.isclass(c) and issubclass(c, Topology) and c is not Topology and c.__module__ == module_name]
    if len(classes) != 1:
        raise UserError(f"{path}: expected one streamparse Topology class, found {len(classes)}")
    for comp in classes[0].specs:
        script = getattr(comp, "component_cls", None)
        if script is not None and script.__module__ == module_name:
            raise UserError(f"{path}: component '{comp.name}' is defined in the topology file; "
                            f"put it under src/ (only src/ is shipped to the workers)")
    return classes[0]


def build_jar(base_jar: Path, project: Path, out: Path) -> Path:
    """The workloads jar with `resources/` replaced by the project's src/."""
    src = project / "src"
    with zipfile.ZipFile(base_jar) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            if not item.filename.startswith(RESOURCES):
                zout.writestr(item, zin.read(item.filename))
        if src.is_dir():
            for f in sorted(src.rglob("*")):
                if f.is_file() and "__pycache__" not in f.parts:
                    zout.write(f, RESOURCES + f.relative_to(src).as_posix())
    return out


def worker_python(project: Path, venv_root: Path, base_python: str = sys.executable) -> str:
    """The interpreter for the workers: `base_python`, or a venv with requirements.txt installed over it."""
    req = project / "requirements.txt"
    if not req.is_file():
        return base_python
    key = hashlib.sha256(req.read_bytes() + base_python.encode()).hexdigest()[:12]
    env_dir = venv_root / f"{project.resolve().name}-{key}"
    python = env_dir / "bin" / "python"
    done = env_dir / ".installed"
    if done.is_file():
        return str(python)
    venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(env_dir)
    # The venv sees the base interpreter's packages (streamparse) through a .pth file.
    base_site = subprocess.run([base_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip()
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_pycontrol_base.pth").write_text(base_site + "\n")
    p = subprocess.run([base_python, "-m", "pip", "--python", str(python), "install", "-q", "-r", str(req)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        tail = [ln for ln in p.stderr.splitlines() if ln.strip()]
        raise UserError(f"{req}: pip install failed: {tail[-1] if tail else f'exit {p.returncode}'}")
    done.write_text(req.read_text())
    return str(python)


def submit_sparse(project: Path, name: str | None, topology_name: str | None, settings: list[str],
                  conf_dir: Path, venv_root: Path, python: str | None = None) -> str:
    project = project.resolve()
    path = topology_file(project, name)
    check_syntax(project)
    settings = storm_submit.parse_settings(settings)
    topology_name = topology_name or path.stem
    spec = export_spec(load_topology_class(project, path), topology_name)
    python = python or worker_python(project, venv_root)
    base_jar = paths.require_dist() / storm_submit.WORKLOADS_JAR
    with tempfile.TemporaryDirectory(prefix="pycontrol-sparse-") as tmp:
        jar = build_jar(base_jar, project, Path(tmp) / f"{topology_name}.jar")
        spec_file = Path(tmp) / f"{topology_name}.json"
        spec_file.write_text(json.dumps(spec, indent=1))
        argv = [f"nonstop.python={python}", f"nonstop.multilang.spec={spec_file}", *settings]
        try:
            return storm_submit.submit_java(MULTILANG, topology_name, argv, conf_dir, jar=jar)
        except UserError as e:
            raise UserError(str(e).replace(f"workload '{MULTILANG}'", f"topology '{topology_name}'")) from e
