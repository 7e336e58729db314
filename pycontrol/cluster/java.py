"""Finding Java: its home is pycontrol.jvm.java (re-exported here for the cluster's older importers)."""

from pycontrol.jvm.java import REQUIRED_MAJOR, find_java, java_major  # noqa: F401
