"""Per-component conf added to an exported spec (how RSM runs carry Storm's resource requests)."""

from __future__ import annotations

import pytest

from pycontrol.errors import UserError
from pycontrol.workloads import catalog
from pycontrol.workloads.spec import add_component_conf, export_spec


def test_component_conf_becomes_add_component_config_calls_of_that_component():
    spec = export_spec(catalog.topology_class("micro-linear-py"), "m")
    add_component_conf(spec, {"B": {"topology.component.cpu.pcore.percent": 6.7,
                                    "topology.component.resources.onheap.memory.mb": 240.0}})
    blob = next(c for c in spec["bolts"] if c["id"] == "B")
    assert {"name": "addComponentConfig", "args": ["topology.component.cpu.pcore.percent", 6.7]} in blob["configMethods"]
    assert len([m for m in blob["configMethods"] if m["name"] == "addComponentConfig"]) == 2
    others = [c for c in spec["bolts"] if c["id"] != "B"]
    assert not any(m["name"] == "addComponentConfig" for c in others for m in c.get("configMethods", []))


def test_component_conf_for_an_unknown_component_is_refused_with_the_known_ones():
    spec = export_spec(catalog.topology_class("micro-linear-py"), "m")
    with pytest.raises(UserError, match="no component.*Q.*components: B, F, P, T, X, sink, source"):
        add_component_conf(spec, {"Q": {"x": 1}})
