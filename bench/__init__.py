"""Benchmarks: ``python -m bench.<name>`` prints a table and, last, one JSON line with every figure."""
