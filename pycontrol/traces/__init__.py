"""Trace preparation: raw traces (web logs, keyed CSV events, Wikipedia page views, plain text)
turned into a replay file for the rate-controlled spout, a per-second rate series and key statistics.

Importing this package loads no Spark; the Spark modules (`session`, `formats`, `prepare`) import
pyspark themselves, so the control-plane daemons never pay for a JVM.

- `replay`   the replay file format (gzip NDJSON sorted by offset_ms): writer and validating reader
- `stats`    pure statistics: per-second rate stats, key frequency stats, Zipf fit
- `formats`  Spark parsers, one per input format; bad lines are tagged with a reason, never raised
- `prepare`  the Spark job that turns parsed events into the replay file, series, tables, summary
- `plots`    matplotlib (Agg) figures of the rate series and the rank/frequency curve
- `session`  the SparkSession used by the CLI (local[*] or any --master)
"""
