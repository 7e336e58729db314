"""Model-driven sizing of stream DAGs (Shukla & Simmhan, seed 002): how many threads per task and
how many slots a DAG needs to run stably at a given input rate, and what a placement will do.

- `dag`      the application DAG (tasks, edges, selectivities), its file format, built-in micro-DAGs
- `rates`    GetRate: per-task input rates from the DAG input rate
- `models`   per-task performance models τ -> (peak rate, CPU, memory) and the paper's values
- `allocate` LSA (Alg. 2) and MBA (Alg. 3): threads, resources, bundles, slot count ρ; JSON form
- `vms`      VM acquisition for ρ slots (§7.1)
- `predict`  model-based prediction of rate and per-slot/node usage for any placement (§8.5)
"""
