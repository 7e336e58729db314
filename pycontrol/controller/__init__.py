"""The controller daemon: collect -> model -> evaluate -> plan -> gate (safety) -> realize -> verify.

Each phase is a small part with one job; the clock is injected, so a recorded metrics trace
replays to the same decisions.
"""
