"""The learned clauses a solver still held at the end of a run, read from its DRAT proof trace.

A DRAT trace lists every clause the solver added (a line of literals ending in 0) and deleted
(the same line after "d "). What is added and never deleted is the solver's clause database
when it stopped: the clauses its own reduction policy judged worth keeping. Handing the short
ones to a second run on the same formula plus one more clause spares it relearning them
(``pipeline.solve.kissat`` does this for the uniqueness proof).

That is sound only for clauses the formula implies. A CDCL solver's learned clauses are (each
is derived by resolution), and Kissat ``--plain`` runs nothing else: it turns preprocessing and
inprocessing off, so there is no variable addition, elimination or other step whose clauses are
merely satisfiability-preserving. As a second guard, a clause over any variable beyond the
formula's own (one a solver introduced) is never returned.
"""

from __future__ import annotations

from collections.abc import Iterable

Clause = tuple[int, ...]


def surviving_lemmas(trace: Iterable[bytes], num_vars: int, max_length: int) -> list[Clause]:
    """The clauses added and not deleted in the text DRAT ``trace`` (its lines, e.g. the file
    opened in binary mode: a trace grows by megabytes a second, so it is read as a stream), of 1
    to ``max_length`` literals, over variables 1..``num_vars`` only; in the order they were
    first added."""
    alive: dict[frozenset[int], int] = {}  # clause -> copies added and not yet deleted
    for line in trace:
        deletion = line.startswith(b"d ")
        # Counting spaces skips the long clauses (most of a trace) without parsing them;
        # "d 1 -2 0" has one space more than its two literals.
        if line.count(b" ") > max_length + deletion:
            continue
        # A line cut short (a run killed mid-write) would have its last literal taken for the
        # 0, leaving a clause stronger than the one learned.
        if not line.endswith((b" 0\n", b" 0")):
            continue
        literals = frozenset(map(int, line.split()[deletion:-1]))
        if not literals:
            continue
        # Solvers reorder literals between adding and deleting, so a clause is its set.
        copies = alive.get(literals, 0) + (-1 if deletion else 1)
        if copies > 0:
            alive[literals] = copies
        else:
            alive.pop(literals, None)
    return [
        tuple(sorted(clause, key=abs))
        for clause in alive
        if max(abs(literal) for literal in clause) <= num_vars
    ]
