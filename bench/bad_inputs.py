"""The bad-input corpus (tests/bad_inputs.py): each kind's code and message, and the peak
resident memory of a `run` given each bomb alone.

    python -m bench.bad_inputs

Prints a Markdown table of kinds, then one of bombs with the process tree's peak RSS.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests.bad_inputs import make_corpus
from tests.watch import run_watched

CLI = [sys.executable, "-m", "sudoku_batch.cli", "run", "--no-progress", "--jobs", "1"]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-bad-"))
    corpus = make_corpus(work / "in")
    out = work / "out"
    run = run_watched([*CLI, *map(str, corpus.inputs), "--out", str(out)], timeout=600)
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    print(f"whole corpus: exit {run.returncode}, peak RSS {run.peak_rss / 2**20:.0f} MiB\n")
    print("| input kind | code | message |\n|---|---|---|")
    for kind in corpus.kinds:
        for record in (r for r in records if r["source"] == kind.label):
            message = (record["message"] or "").replace(str(work), "…").replace("|", "\\|")
            print(f"| {kind.name} | `{record['error_code'] or record['status']}` | {message} |")
    print("\n| bomb | size on disk | code | peak RSS of the run |\n|---|---|---|---|")
    for kind in (k for k in corpus.kinds if k.bomb):
        path = Path(kind.label)
        while not path.exists():  # a zip member's label: the archive is the file
            path = path.parent
        alone = work / f"out-{path.name}"
        bomb = run_watched([*CLI, str(path), "--out", str(alone)], timeout=600)
        (record,) = (
            json.loads(line) for line in (alone / "results.jsonl").read_text().splitlines()
        )
        print(
            f"| {kind.name} | {os.path.getsize(path) / 1024:.0f} KB | `{record['error_code']}` "
            f"| {bomb.peak_rss / 2**20:.0f} MiB |"
        )


if __name__ == "__main__":
    main()
