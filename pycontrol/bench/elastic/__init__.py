"""The Elastic Allocator experiment (seed 003), scaled to one machine: `pycontrol bench elastic`."""
