"""Alembic migrations of the one schema (sudoku_batch.store.models)."""
