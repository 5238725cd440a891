"""Benchmarks that print figures (performance is measured here, not asserted in tests).

``python -m bench.push_latency`` (or ``scripts/bench``) is the entry point; see bench/README.md.
"""
