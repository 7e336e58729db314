"""State handoff for Python bolts over the multilang protocol (docs/state-handoff.md, "As built: multilang bolts").

A bolt opts in by mixing in `StateHandoff` before streamparse's `Bolt` and defining `snapshot_state()` (anything
`json.dumps` takes) and `restore_state(state)`. The mixin's `spec` sets the component conf key the worker's agent
looks for, so only such bolts are ever sent the two requests; each is a pseudo-tuple from task -1 (like Storm's
heartbeat), answered here and never seen by `process`:

    {"id": I, "stream": "__nonstop_snapshot", "task": -1, "tuple": []}
        -> {"command": "nonstop_snapshot", "id": I, "msg": "<the state as JSON text>"}
    {"id": I, "stream": "__nonstop_restore", "task": -1, "tuple": ["<JSON text>"]}
        -> {"command": "nonstop_restored", "id": I}

and {"command": "nonstop_failed", "id": I, "msg": "<why>"} when the bolt's own method raised. The state travels as
JSON text in "msg" because Storm's multilang serializer keeps only the fields it knows.

No streamparse import here: the mixin reaches the bolt's methods through `super()`.
"""

from __future__ import annotations

import json
from typing import Any

OPT_IN_KEY = "nonstop.migration.state.multilang"
SNAPSHOT_STREAM = "__nonstop_snapshot"
RESTORE_STREAM = "__nonstop_restore"
SYSTEM_TASK = -1


def handoff_reply(bolt: Any, stream: str, task: int, request_id: Any, values: Any) -> dict | None:
    """The answer to a handoff request, or None when the tuple is not one (it goes to `process` as usual)."""
    if task != SYSTEM_TASK or stream not in (SNAPSHOT_STREAM, RESTORE_STREAM):
        return None
    try:
        if stream == SNAPSHOT_STREAM:
            return {"command": "nonstop_snapshot", "id": request_id, "msg": json.dumps(bolt.snapshot_state())}
        if not values or not isinstance(values[0], str):
            raise ValueError("the restore request carries no state")
        bolt.restore_state(json.loads(values[0]))
        return {"command": "nonstop_restored", "id": request_id}
    except Exception as e:  # the bolt's own code: the worker refuses the handoff with this reason
        return {"command": "nonstop_failed", "id": request_id, "msg": f"{type(e).__name__}: {e}"[:1000]}


class StateHandoff:
    """Mix in before `streamparse.Bolt`: `class Count(StateHandoff, Bolt)`; define both methods."""

    def snapshot_state(self) -> Any:
        """The bolt's state, JSON-able; called between two tuples, after every tuple sent before the request."""
        raise NotImplementedError

    def restore_state(self, state: Any) -> None:
        """Installs a state `snapshot_state` of another instance returned, before this one's first tuple."""
        raise NotImplementedError

    @classmethod
    def spec(cls, *args, config: dict | None = None, **kwargs):
        return super().spec(*args, config={**(config or {}), OPT_IN_KEY: True}, **kwargs)

    def read_tuple(self):
        while True:
            tup = super().read_tuple()
            reply = handoff_reply(self, tup.stream, tup.task, tup.id, tup.values)
            if reply is None:
                return tup
            self.send_message(reply)
