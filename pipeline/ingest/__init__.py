"""Ingest: what a user hands in (images, PDFs, zips, text files of puzzles) turned into pages
and puzzles to read."""
