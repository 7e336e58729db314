"""Submitting any workload by name: a Python topology (topologies/ package) or a Java workload.

Python topologies are exported to a JSON spec and submitted through the Java `multilang` workload,
with `nonstop.python` = the interpreter pycontrol runs under (it has streamparse; on other clusters
pass --set nonstop.python=<path on the worker hosts>). Word counts get the prepared Brown corpus
as workload.input unless an input or a trace is given.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from pycontrol.errors import UserError
from pycontrol.storm import submit as storm_submit
from pycontrol.workloads import catalog, corpus
from pycontrol.workloads.spec import add_component_conf, export_spec

MULTILANG = "multilang"

# Storm 2's shuffle grouping is load-aware: it keeps tuples in the sender's worker while the local
# queues look light. A placement experiment that reasons about threads sharing a component's input
# evenly (the sizing models, OTD's per-worker loads) deploys with plain shuffle instead: with it on, a
# sizing run's waiting tasks got all their input on the one local thread, and OTD's compute word count
# sent nearly every sentence to the spout's local split, so a move changed where the load was not.
EVEN_SHUFFLE = "topology.disable.loadaware.messaging=true"


def _keys(settings: list[str]) -> set[str]:
    return {s.partition("=")[0].strip() for s in settings}


def implicit_settings(workload: str, settings: list[str]) -> list[str]:
    """Settings pycontrol adds before the user's (which therefore win)."""
    keys = _keys(settings)
    extra = []
    if catalog.needs_corpus(workload) and not keys & {"workload.input", "workload.trace"}:
        extra.append(f"workload.input={corpus.prepare()}")
    if catalog.is_python(workload) and "nonstop.python" not in keys:
        extra.append(f"nonstop.python={sys.executable}")
    return extra


def submit_workload(workload: str, topology_name: str, settings: list[str], conf_dir: Path,
                    component_conf: dict[str, dict] | None = None) -> str:
    """Submit by name; `component_conf` (Python topologies only) adds per-component conf entries."""
    settings = storm_submit.parse_settings(settings)
    if catalog.is_python(workload):
        return _submit_python(workload, topology_name, settings, conf_dir, component_conf or {})
    if component_conf:
        raise UserError(f"per-component conf is only supported for Python topologies, not '{workload}'")
    try:
        return storm_submit.submit_java(workload, topology_name, implicit_settings(workload, settings) + settings,
                                        conf_dir)
    except UserError as e:
        if str(e).startswith("unknown workload"):
            raise UserError(f"unknown workload '{workload}'; Python: {sorted(catalog.python_topologies())}, "
                            f"Java: {_java_names(str(e))}") from e
        raise


def _java_names(message: str) -> str:
    m = re.search(r"known: (\[.*\])", message)
    return m.group(1) if m else "?"


def _submit_python(workload: str, topology_name: str, settings: list[str], conf_dir: Path,
                   component_conf: dict[str, dict]) -> str:
    spec = add_component_conf(export_spec(catalog.topology_class(workload), topology_name), component_conf)
    with tempfile.TemporaryDirectory(prefix="pycontrol-spec-") as tmp:
        spec_file = Path(tmp) / f"{workload}.json"
        spec_file.write_text(json.dumps(spec, indent=1))
        argv = implicit_settings(workload, settings) + [f"nonstop.multilang.spec={spec_file}"] + settings
        try:
            return storm_submit.submit_java(MULTILANG, topology_name, argv, conf_dir)
        except UserError as e:
            # The Java side names its generic workload; the user knows the topology by its name.
            raise UserError(str(e).replace(f"workload '{MULTILANG}'", f"topology '{workload}'")) from e
