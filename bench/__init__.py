"""Benchmarks for allfours-notation: run with ``python -m bench`` (see bench/RESULTS.md)."""
