"""Default solve timeouts: the seconds one puzzle may take, its uniqueness proof included."""

# The commands (`run`, `solve-text`, option --timeout): someone waits at a terminal, so a
# puzzle too hard for ten seconds is reported as a timeout instead of holding the batch.
COMMAND_SOLVE_TIMEOUT = 10.0
# The server's workers (SUDOKU_BATCH_SOLVE_TIMEOUT): nobody waits on one grid, so the hardest
# puzzles of a book get the time to be solved.
SERVER_SOLVE_TIMEOUT = 60.0
