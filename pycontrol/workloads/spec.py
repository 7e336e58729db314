"""A streamparse Topology class -> the JSON spec the Java builder reads (SpecTopologyBuilder).

That is streamparse's own Flux dict (`Topology.to_flux_dict`) plus what it leaves out: the
parallelism and component conf of Java components, and the topology conf defaults (the class's
`config` attribute) under "config".
"""

from __future__ import annotations

import json

from streamparse.dsl.bolt import JavaBoltSpec
from streamparse.dsl.spout import JavaSpoutSpec

from pycontrol.errors import UserError


def export_spec(topology_cls, name: str) -> dict:
    try:
        flux = topology_cls.to_flux_dict(name)
    except Exception as e:  # streamparse raises TypeError/ValueError for bad specs
        raise UserError(f"topology '{name}': streamparse cannot export {topology_cls.__name__}: {e}") from e
    java_specs = {s.name: s for s in topology_cls.specs if isinstance(s, (JavaSpoutSpec, JavaBoltSpec))}
    for comp in flux.get("spouts", []) + flux.get("bolts", []):
        spec = java_specs.get(comp["id"])
        if spec is None:
            continue
        par = spec.par if spec.par is not None else 1
        if not isinstance(par, int):
            raise UserError(f"topology '{name}': component '{comp['id']}': parallelism must be an int, got {par!r}")
        comp["parallelism"] = par
        config = json.loads(spec.config) if isinstance(spec.config, str) else (spec.config or {})
        for key, value in config.items():
            comp.setdefault("configMethods", []).append({"name": "addComponentConfig", "args": [key, value]})
    for comp in flux.get("spouts", []) + flux.get("bolts", []):
        if isinstance(comp.get("parallelism"), dict):
            raise UserError(f"topology '{name}': component '{comp['id']}': per-environment parallelism "
                            f"{comp['parallelism']} is not supported; use an int")
    flux["config"] = dict(getattr(topology_cls, "config", None) or {})
    return flux


def add_component_conf(spec: dict, conf: dict[str, dict]) -> dict:
    """The spec with extra per-component conf (e.g. Storm's resource requests for the
    ResourceAwareScheduler) added as addComponentConfig calls; unknown components are an error."""
    comps = {c["id"]: c for c in spec.get("spouts", []) + spec.get("bolts", [])}
    unknown = sorted(set(conf) - set(comps))
    if unknown:
        raise UserError(f"topology '{spec.get('name')}' has no component(s) {', '.join(unknown)} "
                        f"(components: {', '.join(sorted(comps))})")
    for cid, entries in conf.items():
        methods = comps[cid].setdefault("configMethods", [])
        methods.extend({"name": "addComponentConfig", "args": [k, v]} for k, v in entries.items())
    return spec
