"""Reading a solver's surviving learned clauses from its DRAT trace, and that Kissat's are sound
to hand to the uniqueness proof."""

from __future__ import annotations

from pysat.solvers import Solver

from sudoku_batch.pipeline.errors import SolverFailed
from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line
from sudoku_batch.pipeline.solve.backend import SatStatus
from sudoku_batch.pipeline.solve.drat import surviving_lemmas
from sudoku_batch.pipeline.solve.encode import encode_puzzle
from sudoku_batch.pipeline.solve.kissat import KissatBackend
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle

# The first puzzles of the forum's hardest list (puzzles6_forum_hardest_1106 in shared data):
# Kissat needs real search on them, so its trace holds learned clauses.
HARD_9X9 = (
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
)


def test_added_and_never_deleted_clauses_survive():
    trace = [
        b"1 2 0\n",
        b"-3 4 0",
        b"d 4 -3 0",  # deleted with its literals in another order
        b"5 0",
        b"2 6 0",
        b"2 6 0",  # added twice, deleted once: one copy is still held
        b"d 6 2 0",
        b"d 7 8 0",  # an input clause deleted: nothing to forget
        b"1 2 3 4 0",  # longer than asked for
        b"1 99 0",  # over a variable the solver introduced
        b"0",  # the empty clause ends an UNSAT proof
        b"3 -4 -5",  # cut short: not the clause (3, -4)
    ]
    assert surviving_lemmas(trace, num_vars=10, max_length=3) == [(1, 2), (5,), (2, 6)]


def test_kissats_surviving_lemmas_are_implied_by_the_formula():
    """Each lemma C handed on must follow from the formula F alone (F and not-C unsatisfiable),
    or the uniqueness proof could rule out a real second solution."""
    backend = KissatBackend(lemma_max_length=20, lemma_min_vars=0)
    checked = 0
    for line in HARD_9X9:
        cnf = encode_puzzle(parse_puzzle_line(line).puzzle).cnf
        outcome, lemmas = backend.solve_cnf_learning(cnf, timeout=30)
        assert outcome.status is SatStatus.SAT and lemmas
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
            for lemma in lemmas:
                assert not solver.solve(assumptions=[-literal for literal in lemma]), lemma
                checked += 1
    assert checked > 100


def test_without_lemmas_the_verdicts_and_solutions_are_the_same():
    with_lemmas, without = KissatBackend(lemma_min_vars=0), KissatBackend(lemma_max_length=0)
    for line in HARD_9X9:
        puzzle = parse_puzzle_line(line).puzzle
        results = [solve_puzzle(puzzle, backend, timeout=30) for backend in (with_lemmas, without)]
        assert [r.verdict for r in results] == [Verdict.SOLVED, Verdict.SOLVED]
        assert results[0].solution == results[1].solution


def _watch_runs(monkeypatch, backend: KissatBackend, refuse_traces: bool = False) -> list:
    """The files each of ``backend``'s kissat runs is given (empty: the formula on stdin); with
    ``refuse_traces``, a run asked for a trace fails as kissat does when it cannot write one."""
    run = backend._run
    runs = []

    def watched(dimacs, timeout, files=()):
        runs.append(files)
        if files and refuse_traces:
            raise SolverFailed("kissat exited with code 1: can not write proof")
        return run(dimacs, timeout, files)

    monkeypatch.setattr(backend, "_run", watched)
    return runs


def test_a_run_that_cannot_write_its_trace_is_run_again_without_one(monkeypatch):
    """The trace only saves time: a failure around it (here, Kissat refusing the trace path)
    must cost the lemmas, not the answer."""
    backend = KissatBackend(lemma_min_vars=0)
    runs = _watch_runs(monkeypatch, backend, refuse_traces=True)
    puzzle = parse_puzzle_line(HARD_9X9[0]).puzzle
    outcome, lemmas = backend.solve_cnf_learning(encode_puzzle(puzzle).cnf, timeout=30)
    assert runs[0] and runs[1:] == [()]
    assert outcome.status is SatStatus.SAT and lemmas == []
    assert solve_puzzle(puzzle, backend, timeout=30).verdict is Verdict.SOLVED


def test_small_formulas_are_solved_without_a_trace(monkeypatch):
    backend = KissatBackend(lemma_min_vars=10_000)
    runs = _watch_runs(monkeypatch, backend)
    cnf = encode_puzzle(parse_puzzle_line(HARD_9X9[0]).puzzle).cnf
    outcome, lemmas = backend.solve_cnf_learning(cnf, timeout=30)
    assert outcome.status is SatStatus.SAT and lemmas == [] and runs == [()]
