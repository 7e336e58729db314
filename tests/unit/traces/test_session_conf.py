"""Spark settings of the trace CLI (computed only; no JVM is started here)."""

from __future__ import annotations

import os

import pytest

from pycontrol.traces.session import local_cores, session_conf


@pytest.mark.parametrize("master, cores", [
    ("local", 1), ("local[3]", 3), ("local[2,4]", 2), ("local[*]", os.cpu_count()),
    ("spark://h:7077", None), ("yarn", None), ("local-cluster[2,1,1024]", None),
])
def test_local_cores(master, cores):
    assert local_cores(master) == cores


def test_local_masters_stay_on_loopback_with_few_shuffle_partitions():
    conf = session_conf("local[2]", progress=True)
    assert conf["spark.driver.host"] == conf["spark.driver.bindAddress"] == "127.0.0.1"
    assert conf["spark.sql.shuffle.partitions"] == "8"
    assert conf["spark.ui.showConsoleProgress"] == "true" and conf["spark.ui.enabled"] == "false"
    assert conf["spark.sql.session.timeZone"] == "UTC"


def test_cluster_masters_keep_spark_defaults_for_driver_address_and_partitions():
    conf = session_conf("spark://10.1.2.3:7077", progress=False)
    assert "spark.driver.host" not in conf and "spark.sql.shuffle.partitions" not in conf
    assert conf["spark.ui.showConsoleProgress"] == "false"


def test_user_conf_wins():
    conf = session_conf("local[2]", progress=False, conf={"spark.ui.enabled": "true", "spark.x": "1"})
    assert conf["spark.ui.enabled"] == "true" and conf["spark.x"] == "1"
