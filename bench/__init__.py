"""Benchmarks for allfours-notation: ``python -m bench`` (the README's Performance section)."""
