"""Benchmarks for allfours-notation: run with ``python -m bench`` (see the README's Performance section)."""
