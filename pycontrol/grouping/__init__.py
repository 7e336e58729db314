"""Consistent Grouping around the Java grouping module: the simulator's streams, runs, sweeps and figures."""
