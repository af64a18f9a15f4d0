"""One thin module per stage: load by id, call the pipeline, persist, hand on by id."""
