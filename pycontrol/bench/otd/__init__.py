"""The paper's OTD experiment on a local cluster (`pycontrol bench otd`, and the README's demo): a word
count under Storm's default placement, then the controller with policy otd moving executors live;
samples of worker CPU, inter-node share, throughput and latency over time, a before/after summary and
plots with the moves marked."""
