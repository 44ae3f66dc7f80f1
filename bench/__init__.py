"""Benchmarks for allfours-notation: ``python -m bench`` (docs/performance.md)."""
