"""`pycontrol bench state-size` (issue #28's benchmark): a bolt holding 1 KB to tens of MB of state moved
between live workers with the suite's handoff, against Storm's way (the worker relaunched, Storm's
stateful bolt restored from its last checkpoint in a persistent provider, the uncommitted tuples
replayed). design: the ways, sizes and run order; placing: where the moved executors go; measures: what a
run reports; runner: the clusters."""
