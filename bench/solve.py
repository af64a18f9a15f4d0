"""Solve-stage benchmark over the public puzzle sets in <shared data>/puzzles/.

    python bench/solve.py [--limit 300] [--backend kissat --backend cadical] [--sets 25x25]

For each set and backend: puzzles/s on one core, median and p99 milliseconds per puzzle
*including the uniqueness verdict* (so two SAT calls for a solvable puzzle), the median CPU
milliseconds (this process and its children: on a shared machine wall time mostly measures the
other tenants), and the verdict counts. Backends run interleaved puzzle by puzzle so machine
noise hits them alike, and the floor of one bare ``kissat --version`` launch is measured in the
same run. Every reported solution is re-checked with pipeline.solve.check and the backends'
verdicts and solutions are compared; any disagreement is counted under "wrong".

The data folder is $SUDOKU_BATCH_SHARED_DATA, else ../shared/data beside the checkout.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.shared_data import shared_data_dir  # noqa: E402
from sudoku_batch.pipeline.errors import InvalidPuzzle  # noqa: E402
from sudoku_batch.pipeline.ingest.textpuzzle import TextPuzzle, is_puzzle_line, parse_puzzle_line  # noqa: E402
from sudoku_batch.pipeline.solve.backend import SatBackend  # noqa: E402
from sudoku_batch.pipeline.solve.backends import BACKEND_NAMES, DEFAULT_BACKEND, make_backend  # noqa: E402
from sudoku_batch.pipeline.solve.check import solution_problems  # noqa: E402
from sudoku_batch.pipeline.solve.encode import AtMostOne, EncodingPolicy  # noqa: E402
from sudoku_batch.pipeline.solve.kissat import DEFAULT_OPTIONS, LEMMA_MAX_LENGTH, KissatBackend  # noqa: E402
from sudoku_batch.pipeline.solve.result import SolveResult, Verdict  # noqa: E402
from sudoku_batch.pipeline.solve.solver import solve_puzzle  # noqa: E402


def main() -> int:
    args = _arguments()
    puzzles_dir = shared_data_dir() / "puzzles"
    if not puzzles_dir.is_dir():
        print(f"no puzzle sets at {puzzles_dir}: set SUDOKU_BATCH_SHARED_DATA", file=sys.stderr)
        return 2
    policy = EncodingPolicy(
        long_lists=AtMostOne(args.amo),
        pairwise_up_to=args.pairwise_up_to,
        unit_at_least_once=not args.no_unit_alo,
        propagate=not args.no_propagation,
    )
    backends = [_backend(name, args.kissat_options) for name in args.backend]
    floors = _launch_floors(backends, repeats=50)
    print(
        "one `kissat --version` launch, median wall / mean CPU of 50: "
        + ", ".join(f"{how} {ms:.2f} / {cpu:.2f} ms" for how, (ms, cpu) in floors.items())
    )
    print(
        f"default backend: {DEFAULT_BACKEND}; encoding: {policy};"
        f" kissat options: {' '.join(args.kissat_options)}"
    )
    print(
        f"{'set':34} {'backend':12} {'n':>5} {'puz/s':>8} {'median ms':>10} {'p99 ms':>9}"
        f" {'max ms':>9} {'cpu ms':>7}  wrong  verdicts"
    )
    wrong_total = 0
    for path in sorted(p for p in puzzles_dir.iterdir() if p.is_file() and p.suffix != ".md"):
        if args.sets and not any(s in path.name for s in args.sets):
            continue
        puzzles = _read_set(path, args.limit)
        times = {b.name: [] for b in backends}
        cpu = {b.name: [] for b in backends}
        verdicts = {b.name: Counter() for b in backends}
        wrong = Counter()
        for text in puzzles:
            results = {}
            for backend in backends:
                cpu_before = _cpu_seconds()
                result = _solve(text, backend, args.timeout, policy)
                cpu[backend.name].append(_cpu_seconds() - cpu_before)
                times[backend.name].append(result.seconds)
                verdicts[backend.name][result.verdict] += 1
                results[backend.name] = result
                if text is not None and _is_wrong(text, result):
                    wrong[backend.name] += 1
            # Verdicts must agree, and so must the solution of a unique puzzle.
            decided = [r for r in results.values() if r.verdict is not Verdict.TIMEOUT]
            found = {
                (r.verdict, r.solution if r.verdict is Verdict.SOLVED else None) for r in decided
            }
            if len(found) > 1:
                for name in results:
                    wrong[name] += 1  # the backends disagree: at least one of them is wrong
        for backend in backends:
            ms = sorted(1000 * s for s in times[backend.name])
            rate = len(ms) / (sum(ms) / 1000) if sum(ms) else float("inf")
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            counts = " ".join(f"{v}={c}" for v, c in sorted(verdicts[backend.name].items()))
            print(
                f"{path.name:34} {backend.name:12} {len(ms):5} {rate:8.0f}"
                f" {statistics.median(ms):10.2f} {p99:9.2f} {ms[-1]:9.1f}"
                f" {1000 * statistics.median(cpu[backend.name]):7.2f}"
                f"  {wrong[backend.name]:5}  {counts}",
                flush=True,
            )
            wrong_total += wrong[backend.name]
    print("no wrong answers" if not wrong_total else f"{wrong_total} WRONG ANSWERS")
    return 1 if wrong_total else 0


def _cpu_seconds() -> float:
    """User and system CPU time of this process and its waited-for children (kissat)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _solve(text: TextPuzzle | None, backend, timeout, policy) -> SolveResult:
    if text is None:  # the line did not parse: the set's invalid puzzles
        return SolveResult(Verdict.INVALID, backend=backend.name)
    return solve_puzzle(text.puzzle, backend, timeout, policy=policy)


def _is_wrong(text: TextPuzzle, result: SolveResult) -> bool:
    found = [g for g in (result.solution, result.second_solution) if g is not None]
    return any(solution_problems(text.puzzle, grid) for grid in found) or (
        result.verdict is Verdict.MULTIPLE_SOLUTIONS and result.solution == result.second_solution
    )


def _read_set(path: Path, limit: int) -> list[TextPuzzle | None]:
    puzzles: list[TextPuzzle | None] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if not is_puzzle_line(line):
                continue
            try:
                puzzles.append(parse_puzzle_line(line))
            except InvalidPuzzle:
                puzzles.append(None)
            if len(puzzles) == limit:
                break
    return puzzles


# Only here, to measure against: Kissat whose uniqueness proof starts from scratch instead of
# with the first run's learned clauses (pipeline.solve.kissat.LEMMA_MAX_LENGTH).
FRESH_KISSAT = "kissat-fresh"


def _backend(name: str, kissat_options: list[str]) -> SatBackend:
    if name in ("kissat", FRESH_KISSAT):
        backend = KissatBackend(
            options=tuple(kissat_options),
            lemma_max_length=0 if name == FRESH_KISSAT else LEMMA_MAX_LENGTH,
        )
        backend.name = name
        return backend
    return make_backend(name)


def _launch_floors(backends: list[SatBackend], repeats: int) -> dict[str, tuple[float, float]]:
    """Median wall ms and mean CPU ms of one ``kissat --version``, interleaved: bare, in its own
    session (what killpg needs), and as KissatBackend launches it (also the death signal)."""
    kissat = next((b for b in backends if isinstance(b, KissatBackend)), None) or KissatBackend()
    bare = [str(kissat.binary), "--version"]
    ways = {
        "bare": (bare, False, None),
        "own session": (bare, True, None),
        "as launched": (kissat.launch_command(["--version"]), True, kissat.preexec_fn),
    }
    wall: dict[str, list[float]] = {how: [] for how in ways}
    cpu: dict[str, list[float]] = {how: [] for how in ways}
    for _ in range(repeats):
        for how, (command, session, preexec) in ways.items():
            cpu_before, started = _cpu_seconds(), time.perf_counter()
            subprocess.run(
                command,
                capture_output=True,
                start_new_session=session,
                preexec_fn=preexec() if preexec else None,
            )
            wall[how].append(1000 * (time.perf_counter() - started))
            cpu[how].append(1000 * (_cpu_seconds() - cpu_before))
    return {how: (statistics.median(wall[how]), statistics.mean(cpu[how])) for how in ways}


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=300, help="puzzles per set (default 300)")
    parser.add_argument(
        "--backend",
        action="append",
        choices=[*BACKEND_NAMES, FRESH_KISSAT],
        help=f"repeat to compare (default: all but {FRESH_KISSAT})",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per puzzle")
    parser.add_argument("--sets", nargs="*", help="only sets whose file name contains one of these")
    parser.add_argument(
        "--amo",
        choices=[m.value for m in AtMostOne],
        default=EncodingPolicy().long_lists.value,
        help="at-most-one encoding for long lists",
    )
    parser.add_argument("--pairwise-up-to", type=int, default=EncodingPolicy().pairwise_up_to)
    parser.add_argument(
        "--no-unit-alo",
        action="store_true",
        help="leave out the redundant every-digit-in-every-unit clauses",
    )
    parser.add_argument(
        "--no-propagation", action="store_true", help="encode after striking the givens only"
    )
    parser.add_argument("--kissat-options", nargs="*", default=list(DEFAULT_OPTIONS))
    args = parser.parse_args()
    args.backend = args.backend or list(BACKEND_NAMES)
    return args


if __name__ == "__main__":
    sys.exit(main())
