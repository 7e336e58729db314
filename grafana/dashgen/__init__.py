"""Grafana dashboards of the nonstop Storm suite, written as code (grafana-foundation-sdk).

`python grafana/generate.py` writes grafana/dashboards/*.json; `--check` fails if they are stale.
"""
