"""ZooKeeper's digest identity of a "<user>:<password>" payload, for an ACL id (storm.zookeeper.superACL).

ZooKeeper's DigestAuthenticationProvider names the principal "<user>:" + base64(sha1("<user>:<password>")).
"""

from __future__ import annotations

import base64
import hashlib

from ansible.errors import AnsibleFilterError


def zookeeper_digest_id(payload: str) -> str:
    user, sep, _ = str(payload).partition(":")
    if not sep or not user:
        raise AnsibleFilterError("a ZooKeeper digest payload must be '<user>:<password>'")
    digest = base64.b64encode(hashlib.sha1(str(payload).encode("utf-8")).digest()).decode("ascii")
    return f"{user}:{digest}"


class FilterModule:
    def filters(self):
        return {"nonstop_zookeeper_digest_id": zookeeper_digest_id}
