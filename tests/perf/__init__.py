"""Benchmarks (``python -m tests.perf.bench``) and the helpers the scale-out test shares.

Nothing here is a test: pytest collects only ``test_*.py`` files, and none live here.
"""
