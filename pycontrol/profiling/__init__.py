"""Profiling tasks on the real cluster: the model-driven paper's harness (seed 002 §5, Algorithm 1)
and the model tables it produces for `pycontrol.sizing`.

- `sweep`    pure: the adaptive rate search (coarse growth, then bisection) and the thread sweep
- `table`    pure: run log -> model table in the sizing format (τ -> peak rate, CPU, memory)
- `tasks`    which tasks can be profiled: model name -> single-task harness topology
- `usage`    CPU and RSS of one worker and its Python children (psutil)
- `trials`   one rate trial on a running topology: set the rate, judge the latency series, drain
- `harness`  `pycontrol model build`: submit the harness per τ, run the sweep, write the run log
"""
