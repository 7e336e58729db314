"""The SparkSession of trace preparation: local[*] by default, any cluster with a master URL."""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[*]"
LOG_CONFIG = Path(__file__).with_name("log4j2.properties")


def session_conf(master: str, *, progress: bool, conf: Mapping[str, str] | None = None) -> dict[str, str]:
    """Spark settings for a trace job; `conf` (the user's --conf) overrides any of them."""
    settings = {
        "spark.ui.enabled": "false",  # no web UI on a shared box unless asked for with --conf
        "spark.ui.showConsoleProgress": "true" if progress else "false",
        # Timestamps without a zone (CSV) are read as UTC; offsets are relative anyway, and UTC
        # has no daylight-saving jumps to bend them.
        "spark.sql.session.timeZone": "UTC",
        # The job caches its aggregates; let adaptive execution still shrink their shuffles.
        "spark.sql.optimizer.canChangeCachedPlanOutputPartitioning": "true",
    }
    cores = local_cores(master)
    if cores is not None:
        # A local driver talks to itself only; on a cluster the executors must reach it, so leave it be.
        settings["spark.driver.host"] = "127.0.0.1"
        settings["spark.driver.bindAddress"] = "127.0.0.1"
        # 200 shuffle partitions (the default) only add task overhead on a few local cores.
        settings["spark.sql.shuffle.partitions"] = str(4 * cores)
    if LOG_CONFIG.is_file():
        settings["spark.driver.extraJavaOptions"] = f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}"
    settings.update(conf or {})
    return settings


def local_cores(master: str) -> int | None:
    """Worker threads of a local master (local, local[4], local[*], local[2,3]); None for a cluster."""
    m = re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", master.strip())
    if not m:
        return None
    threads = m.group(1)
    if threads is None:
        return 1
    return os.cpu_count() or 1 if threads == "*" else int(threads)


def build_session(master: str = DEFAULT_MASTER, *, app_name: str = "pycontrol-trace",
                  progress: bool = False, conf: Mapping[str, str] | None = None) -> SparkSession:
    """A new (or the already running) SparkSession with the trace settings."""
    if local_cores(master) is not None:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # Python workers, if Spark ever starts one, must be this interpreter with this venv.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in session_conf(master, progress=progress, conf=conf).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@contextmanager
def trace_session(master: str = DEFAULT_MASTER, *, progress: bool = False,
                  conf: Mapping[str, str] | None = None) -> Iterator[SparkSession]:
    """The active session if there is one (left running: its owner stops it), else a new one
    that is stopped on exit."""
    active = SparkSession.getActiveSession()
    if active is not None:
        yield active
        return
    spark = build_session(master, progress=progress, conf=conf)
    try:
        yield spark
    finally:
        spark.stop()
