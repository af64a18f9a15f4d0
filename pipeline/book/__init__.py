"""The book check's per-puzzle facts (role, rating, canonical form) and batch-level findings
(answer keys, duplicates): the glue between the pure library parts and the product."""
