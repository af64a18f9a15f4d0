"""Synthetic Sudoku grids, photos, pages and books with their exact truth.

Used by tests, benchmarks and ``examples/``. Everything is deterministic given a
``numpy.random.Generator`` (and the set of fonts installed on the machine).
"""
