"""The HTTP API: submit batches, follow them, read results and renders."""
