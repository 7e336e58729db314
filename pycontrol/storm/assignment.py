"""A topology's assignment as Nimbus wrote it to ZooKeeper (/storm/assignments/<topology-id>): which
worker slot runs each executor. Unlike the UI REST API, whose executor lists follow the executors'
heartbeats (late ones are missing), this is Nimbus's own record and always complete.

The znode holds Storm's thrift `Assignment` struct, serialised with Storm's default
`storm.meta.serialization.delegate` (GzipThriftSerializationDelegate: thrift binary protocol, gzip).
Only the fields needed are read: 2 node_host (supervisor id -> host) and 3 executor_node_port
([start task, end task] -> NodeInfo {1 node, 2 port set}).
"""

from __future__ import annotations

import gzip
import struct
from typing import Any

from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError

from pycontrol.errors import UserError
from pycontrol.wire.executor import ExecutorId

ASSIGNMENTS = "/storm/assignments"

# Thrift binary protocol type ids.
_STOP, _BOOL, _BYTE, _DOUBLE, _I16, _I32, _I64 = 0, 2, 3, 4, 6, 8, 10
_STRING, _STRUCT, _MAP, _SET, _LIST = 11, 12, 13, 14, 15
_FIXED = {_BOOL: ">?", _BYTE: ">b", _DOUBLE: ">d", _I16: ">h", _I32: ">i", _I64: ">q"}


class _Reader:
    """Thrift binary protocol values as Python ones: struct -> {field id: value}, map -> [(key, value)],
    list and set -> list, string -> bytes."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise ValueError("truncated thrift data")
        (value,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return value

    def value(self, ttype: int) -> Any:
        if ttype in _FIXED:
            return self.take(_FIXED[ttype])
        if ttype == _STRING:
            n = self.take(">i")
            if n < 0 or self.pos + n > len(self.data):
                raise ValueError("bad thrift string length")
            out = self.data[self.pos:self.pos + n]
            self.pos += n
            return out
        if ttype == _STRUCT:
            fields = {}
            while (ftype := self.take(">b")) != _STOP:
                fid = self.take(">h")
                fields[fid] = self.value(ftype)
            return fields
        if ttype == _MAP:
            ktype, vtype, n = self.take(">b"), self.take(">b"), self.take(">i")
            return [(self.value(ktype), self.value(vtype)) for _ in range(self._count(n))]
        if ttype in (_SET, _LIST):
            etype, n = self.take(">b"), self.take(">i")
            return [self.value(etype) for _ in range(self._count(n))]
        raise ValueError(f"unknown thrift type {ttype}")

    def _count(self, n: int) -> int:
        if not 0 <= n <= len(self.data):  # every element takes at least a byte
            raise ValueError("bad thrift collection size")
        return n


def decode_assignment(data: bytes) -> dict[ExecutorId, str]:
    """executor -> "host:port" from the znode's bytes. Pure."""
    try:
        raw = gzip.decompress(data)
        fields = _Reader(raw).value(_STRUCT)
        hosts = {k.decode(): v.decode() for k, v in fields.get(2, [])}
        out = {}
        for executor, node_info in fields.get(3, []):
            node, ports = node_info[1].decode(), node_info[2]
            out[ExecutorId(int(executor[0]), int(executor[1]))] = f"{hosts.get(node, node)}:{int(ports[0])}"
        return out
    except (OSError, EOFError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
        raise UserError(f"cannot read the topology's assignment from ZooKeeper ({e}); is this Storm 2.x with its "
                        f"default storm.meta.serialization.delegate?") from e


def read_assignment(client: KazooClient, topology_id: str) -> dict[ExecutorId, str]:
    try:
        data, _ = client.get(f"{ASSIGNMENTS}/{topology_id}")
    except NoNodeError:
        raise UserError(f"topology {topology_id} has no assignment in ZooKeeper (not scheduled yet, or gone)") from None
    return decode_assignment(data)
