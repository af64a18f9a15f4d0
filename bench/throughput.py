"""Throughput of a whole book through the embedded runner (issue 13's figures).

Run from the repository root:

    python -m bench.throughput [--pages 20] [--seed 1] [--jobs 2] [--pdf FILE ...]

A synthetic 9x9 book of ``--pages`` pages at 200 dpi (synth.book, about 3.5 grids a page; made
once and kept under ``--cache``), or the PDFs given, run by ``run_batch`` in this process, so
this process is the coordinator. Prints grids/s, CPU seconds a grid (this process and its
reaped children: pool workers are joined when the run ends), per-stage medians from the
stage_runs table, peak RSS of the coordinator and of the whole process tree (sampled every
0.25 s; also from page 50 on, counted by the pages whose boards are written), and bytes written
a grid by folder. Wall time is noisy on a shared machine; CPU time is not.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.pipeline.grid import GridShape

SAMPLE_SECONDS = 0.25
STEADY_FROM_PAGE = 50
MB = 1024 * 1024


def synthetic_book(cache: Path, pages: int, seed: int, dpi: int) -> Path:
    from sudoku_batch.synth.book import random_book, write_book

    folder = cache / f"book9x9-{pages}p-s{seed}-{dpi}dpi"
    pdf = folder / "book.pdf"
    if not pdf.is_file():
        rng = np.random.default_rng(seed)
        write_book(folder, random_book(rng, pages, dpi=dpi, shape=GridShape(3, 3)), dpi=dpi)
    return pdf


class MemorySampler(threading.Thread):
    """Peak RSS of this process and of its whole tree, overall and once ``boards_dir`` holds
    the boards of STEADY_FROM_PAGE pages."""

    def __init__(self, boards_dir: Path):
        super().__init__(daemon=True)
        self.boards_dir = boards_dir
        self.stop = threading.Event()
        self.peak_self = self.peak_tree = 0
        self.steady_self = self.steady_tree = 0
        self.samples: list[tuple[int, int, int]] = []  # pages written, self RSS, tree RSS

    def run(self) -> None:
        me = psutil.Process()
        while not self.stop.wait(SAMPLE_SECONDS):
            own = me.memory_info().rss
            tree = own
            for child in me.children(recursive=True):
                try:
                    tree += child.memory_info().rss
                except psutil.Error:
                    pass
            pages = len(pages_with_boards(self.boards_dir))
            self.samples.append((pages, own, tree))
            self.peak_self, self.peak_tree = max(self.peak_self, own), max(self.peak_tree, tree)
            if pages >= STEADY_FROM_PAGE:
                self.steady_self = max(self.steady_self, own)
                self.steady_tree = max(self.steady_tree, tree)


def pages_with_boards(boards_dir: Path) -> set[str]:
    """The pages with a board written (board images are named ``<page stem>-g<index>``)."""
    if not boards_dir.exists():
        return set()
    return {path.stem.rsplit("-g", 1)[0] for path in boards_dir.glob("*.png")}


def cpu_seconds() -> float:
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def stage_medians(database: Path) -> dict[str, tuple[int, float]]:
    with sqlite3.connect(database) as db:
        rows = db.execute("select stage, seconds from stage_runs where status = 'ok'").fetchall()
    by_stage: dict[str, list[float]] = {}
    for stage, seconds in rows:
        by_stage.setdefault(stage, []).append(seconds)
    return {stage: (len(s), statistics.median(s)) for stage, s in sorted(by_stage.items())}


def bytes_by_folder(out: Path) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for path in out.rglob("*"):
        if path.is_file():
            top = path.relative_to(out).parts[0] if len(path.relative_to(out).parts) > 1 else "."
            sizes[top] = sizes.get(top, 0) + path.stat().st_size
    return sizes


def run(inputs: list[str], out: Path, jobs: int, dpi: int) -> None:
    sampler = MemorySampler(out / "boards")
    sampler.start()
    cpu_before, started = cpu_seconds(), time.perf_counter()
    batch = run_batch(inputs, EmbeddedOptions(out_dir=out, jobs=jobs, dpi=dpi, progress=False))
    wall, cpu = time.perf_counter() - started, cpu_seconds() - cpu_before
    sampler.stop.set()
    sampler.join()
    records = batch.records
    pages = len({(r["source"], r["page"]) for r in records})
    grids = sum(1 for r in records if r["size"])
    solved = sum(1 for r in records if r["status"] == "solved")
    print(f"pages {pages}  grids {grids} ({grids / max(pages, 1):.2f} a page, {solved} solved)")
    print(f"wall {wall:.1f} s  grids/s {grids / wall:.2f}  (jobs {jobs})")
    print(f"CPU {cpu:.1f} s  CPU-s a grid {cpu / max(grids, 1):.3f}  a page {cpu / pages:.3f}")
    for stage, (count, median) in stage_medians(out / "sudoku-batch.sqlite").items():
        print(f"stage {stage:<8} median {median * 1000:7.1f} ms  over {count}")
    peaks = f"coordinator {sampler.peak_self / MB:.0f} MB  tree {sampler.peak_tree / MB:.0f} MB"
    print(f"peak RSS {peaks}")
    if pages >= STEADY_FROM_PAGE:
        print(
            f"  from page {STEADY_FROM_PAGE}: coordinator {sampler.steady_self / MB:.0f} MB"
            f"  tree {sampler.steady_tree / MB:.0f} MB"
        )
    # Coordinator and tree by pages written: growth shows as rising buckets; the last bucket
    # also holds the end of the run (results read back from the database into results.jsonl).
    buckets: dict[int, tuple[int, int]] = {}
    for written, own, tree in sampler.samples:
        bucket = written // STEADY_FROM_PAGE * STEADY_FROM_PAGE
        old_own, old_tree = buckets.get(bucket, (0, 0))
        buckets[bucket] = max(old_own, own), max(old_tree, tree)
    print(
        "peak RSS by pages written: "
        + "  ".join(f"{k}+: {o / MB:.0f}/{t / MB:.0f} MB" for k, (o, t) in sorted(buckets.items()))
    )
    sizes = bytes_by_folder(out)
    total = sum(sizes.values())
    detail = "  ".join(f"{k} {v / max(grids, 1) / 1024:.0f}" for k, v in sorted(sizes.items()))
    print(f"written {total / MB:.1f} MB  KB a grid {total / max(grids, 1) / 1024:.0f}  ({detail})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pdf", nargs="*", default=[], help="run these PDFs instead")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sb-bench")
    parser.add_argument("--out", type=Path, default=None, help="keep the run's output here")
    args = parser.parse_args()
    inputs = args.pdf or [str(synthetic_book(args.cache, args.pages, args.seed, args.dpi))]
    with tempfile.TemporaryDirectory() as scratch:
        run(inputs, args.out or Path(scratch) / "run", args.jobs, args.dpi)


if __name__ == "__main__":
    main()
