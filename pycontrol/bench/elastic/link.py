"""A tc rate ("10mbit", "1gbit", "500kbps") in bytes per second: tc's units, where "bit" is bits and
"bps" bytes per second, with decimal prefixes. One home for the conversion the benchmark needs."""

from __future__ import annotations

import re

from pycontrol.errors import UserError

_PREFIX = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}


def bytes_per_second(rate: str) -> float:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kmg]?)(bit|bps)", rate.strip().lower())
    if not m or float(m.group(1)) <= 0:
        raise UserError(f"a link rate must look like 10mbit, 1gbit or 500kbps and be > 0, got '{rate}'")
    value = float(m.group(1)) * _PREFIX[m.group(2)]
    return value / 8 if m.group(3) == "bit" else value
