"""Benchmarks (``python -m tests.perf.bench``), the load test (``python -m tests.perf.load``) and the
helpers the scale-out test shares; ``test_*.py`` here run small versions of them in the suite.
"""
