"""The tasks `pycontrol model build` can profile: the five micro-DAG tasks, each with its
single-task harness topology (topologies/microdag/profile.py: source -> task -> sink).

A task is named by the sizing model it measures (the `model:` of the DAG files in
pycontrol/sizing/dags), by its micro-DAG component letter, or by a short alias.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycontrol.errors import UserError

# Component id of the task under test in every harness topology.
TASK_COMPONENT = "task"


@dataclass(frozen=True)
class ProfiledTask:
    model: str                  # sizing model name (the DAG files' `model:`)
    topology: str               # harness topology name (topologies/__init__.py TOPOLOGIES)
    aliases: tuple[str, ...]
    description: str


TASKS: tuple[ProfiledTask, ...] = (
    ProfiledTask("parse_xml", "profile-xml-py", ("X", "xml"), "parse XML (SAX over an in-memory document)"),
    ProfiledTask("pi", "profile-pi-py", ("P",), "Pi by Viete's product (CPU bound)"),
    ProfiledTask("file_write", "profile-filewrite-py", ("F", "filewrite"), "batched file write"),
    ProfiledTask("azure_blob", "profile-blob-py", ("B", "blob"), "blob download stand-in (waits, then fills memory)"),
    ProfiledTask("azure_table", "profile-table-py", ("T", "table"), "table lookup stand-in (waits, then looks up)"),
)


def find_task(name: str) -> ProfiledTask:
    for t in TASKS:
        if name == t.model or name in t.aliases:
            return t
    known = ", ".join(f"{t.model} ({'/'.join(t.aliases)})" for t in TASKS)
    raise UserError(f"unknown task '{name}'; known: {known}")
