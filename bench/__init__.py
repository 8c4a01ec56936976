"""Benchmarks: run as scripts (python bench/latency.py) or modules (python -m bench.latency)."""
