"""The pure image-to-solution pipeline: arrays and dataclasses in, dataclasses out.

Nothing in this package imports Celery, a database driver, or keeps module-level state, so every
stage can be called from a test or a notebook on one image.
"""
