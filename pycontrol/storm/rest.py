"""Client of Storm's UI REST API (/api/v1), the control plane's read path into a cluster."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import requests

from pycontrol.errors import UserError
from pycontrol.wire.executor import ExecutorId


class RestError(UserError):
    """The REST API could not answer (down, or an error reply)."""


class RestAccessDenied(RestError):
    """The server refused a state-changing request: no token, a wrong one, or none configured on the server."""


def executor_id(stat: dict) -> ExecutorId:
    """The executor of one of the REST API's executorStats entries. The API spells executors the UI's way,
    "[start-end]"; this is the one place that reads that spelling: the rest of the control plane passes
    ExecutorId values or the wire spelling "[start,end]"."""
    try:
        return ExecutorId.from_ui(stat["id"])
    except (KeyError, TypeError, ValueError) as e:
        raise RestError(f"the UI REST API listed an executor without a [start-end] id: {stat!r} ({e})") from None


# The UI REST server's setting whose value state-changing requests carry as a bearer token.
TOKEN_KEY = "nonstop.ui.token"


class StormRest:
    def __init__(self, base_url: str, timeout_s: float = 10.0, session: requests.Session | None = None,
                 token: str | None = None):
        """token: the server's nonstop.ui.token, sent on state-changing requests only (reads need none)."""
        self.base = base_url.rstrip("/") + "/api/v1"
        self.timeout_s = timeout_s
        self.http = session or requests.Session()
        self.token = token

    def _get(self, path: str, **params: Any) -> dict:
        url = self.base + path
        try:
            r = self.http.get(url, params=params or None, timeout=self.timeout_s)
        except requests.RequestException as e:
            raise RestError(f"Storm UI REST at {self.base} unreachable: {e.__class__.__name__}") from e
        return self._json(r, url)

    def _post(self, path: str, body: dict | None = None) -> dict:
        url = self.base + path
        try:
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            r = self.http.post(url, json=body, headers=headers, timeout=self.timeout_s)
        except requests.RequestException as e:
            raise RestError(f"Storm UI REST at {self.base} unreachable: {e.__class__.__name__}") from e
        return self._json(r, url)

    def _json(self, r: requests.Response, url: str) -> dict:
        try:
            body = r.json()
        except ValueError:
            body = {}
        if r.status_code >= 400:
            err = body if isinstance(body, dict) else {}
            msg = " ".join(str(err.get("errorMessage") or err.get("error") or r.text[:200]).split())
            if r.status_code in (401, 403) and r.request is not None and r.request.method != "GET":
                hint = ("" if self.token else
                        f"; this client has no {TOKEN_KEY} (the cluster's control storm.yaml has it)")
                raise RestAccessDenied(f"{url}: HTTP {r.status_code}, the UI REST server refused: {msg}{hint}")
            raise RestError(f"{url}: HTTP {r.status_code}: {msg}")
        return body

    def cluster_summary(self) -> dict:
        return self._get("/cluster/summary")

    def nimbuses(self) -> list[dict]:
        """Each Nimbus the UI REST server knows, with "status": "Leader", "Not a Leader" or "Offline"."""
        return self._get("/nimbus/summary").get("nimbuses", [])

    def supervisors(self) -> list[dict]:
        return self._get("/supervisor/summary").get("supervisors", [])

    def topologies(self) -> list[dict]:
        return self._get("/topology/summary").get("topologies", [])

    def topology_id(self, name: str) -> str | None:
        for t in self.topologies():
            if t.get("name") == name:
                return t["id"]
        return None

    def topology(self, topo_id: str, window: str = ":all-time", sys: bool = False) -> dict:
        return self._get(f"/topology/{quote(topo_id)}", window=window, sys=str(sys).lower())

    def component(self, topo_id: str, component: str, window: str = ":all-time", sys: bool = False) -> dict:
        """sys=True is needed for Storm's own components (e.g. __acker) to list their executors."""
        params = {"window": window, **({"sys": "true"} if sys else {})}
        return self._get(f"/topology/{quote(topo_id)}/component/{quote(component)}", **params)

    def topology_workers(self, topo_id: str) -> list[dict]:
        return self._get(f"/topology-workers/{quote(topo_id)}").get("hostPortList", [])

    def rebalance(self, topo_id: str, wait_s: int) -> dict:
        """Storm's rebalance: the topology is deactivated for wait_s, then placed again from scratch."""
        return self._post(f"/topology/{quote(topo_id)}/rebalance/{int(wait_s)}")

    def rebalance_to(self, topo_id: str, wait_s: int, num_workers: int | None = None,
                     executors: dict[str, int] | None = None) -> dict:
        """Storm's rebalance with new worker / executor counts (the body Storm's UI documents)."""
        options: dict[str, Any] = {}
        if num_workers is not None:
            options["numWorkers"] = int(num_workers)
        if executors:
            options["executors"] = {c: int(n) for c, n in executors.items()}
        return self._post(f"/topology/{quote(topo_id)}/rebalance/{int(wait_s)}", {"rebalanceOptions": options})

    def kill(self, topo_id: str, wait_s: int = 0) -> dict:
        return self._post(f"/topology/{quote(topo_id)}/kill/{int(wait_s)}")
