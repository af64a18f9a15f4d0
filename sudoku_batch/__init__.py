"""sudoku-batch: the command line, settings and the embedded (no servers) runner."""
