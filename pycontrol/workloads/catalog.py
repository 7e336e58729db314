"""Which workloads exist: Python topologies (topologies/ package) and Java ones (the workloads jar)."""

from __future__ import annotations

import importlib
import sys

from pycontrol import paths
from pycontrol.errors import UserError

# Word counts read sentences: without workload.input (or a trace) they get the prepared Brown corpus.
CORPUS_WORKLOADS = frozenset({"wordcount-py", "wordcount-heavy-py", "wordcount-pyspout", "wordcount-java",
                              "wordcount-heavy-java"})


def _topologies_package():
    """The repository's topologies/ package (the same source Maven copies into the workloads jar)."""
    root = str(paths.REPO_ROOT)
    if root not in sys.path:
        sys.path.append(root)
    try:
        return importlib.import_module("topologies")
    except ImportError as e:
        raise UserError(f"cannot import the topologies package from {root}: {e}") from e


def python_topologies() -> dict[str, tuple[str, str]]:
    """name -> (module, class) of every Python topology."""
    return dict(_topologies_package().TOPOLOGIES)


def is_python(name: str) -> bool:
    return name in python_topologies()


def topology_class(name: str):
    module, cls = python_topologies()[name]
    _topologies_package()
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as e:
        raise UserError(f"Python topology '{name}' ({module}.{cls}) cannot be loaded: {e}") from e


def needs_corpus(name: str) -> bool:
    return name in CORPUS_WORKLOADS
