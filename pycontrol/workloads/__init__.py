"""Workloads: the topologies/ package (streamparse) and the Java workloads, their inputs (the Brown
corpus), submission, and the measurements they write (per-second series, counts snapshots)."""
