"""The rater's two cores side by side: the compiled one (setup.py) and the .py sources.

    python bench/rating_cores.py [--rounds N] [--repeat R] [--limit N]

Runs ``bench/rating.py`` once per core and round, alternating (pure, compiled, pure, ...) so
both see the same load on a shared machine, and prints per core the best round's puzzles/s
(CPU time, one core): overall, for the puzzles rated <= 9 (the goal's set) and by our rating
band, and the speed-up. Needs an install that built the compiled core.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sudoku_batch.settings.environment import PURE_RATER as PURE_ENV  # noqa: E402

CORES = {"pure Python": "1", "compiled": "0"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    best: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "speeds.json"
        for _ in range(args.rounds):
            for core, pure in CORES.items():
                command = [sys.executable, str(REPO / "bench" / "rating.py")]
                command += ["--repeat", str(args.repeat), "--limit", str(args.limit)]
                command += ["--speeds-json", str(out)]
                env = {**os.environ, PURE_ENV: pure}
                subprocess.run(command, env=env, check=True, capture_output=True)
                speeds = json.loads(out.read_text())
                if speeds["compiled"] != (pure == "0"):
                    sys.exit(f"asked for the {core} core, ran the other (is it built?)")
                if core not in best or speeds["le9"] > best[core]["le9"]:
                    best[core] = speeds
    pure, compiled = best["pure Python"], best["compiled"]
    print(f"puzzles/s (CPU, one core; best of {args.rounds} rounds, each puzzle's median of")
    print(f"{args.repeat} runs)        pure Python   compiled   speed-up")
    rows = [("overall", "overall"), ("rated <= 9", "le9")]
    rows += [(f"band {band} ({n})", band) for band, n in compiled["band_counts"].items()]
    for label, key in rows:
        a = pure["bands"][key] if key.endswith(".x") else pure[key]
        b = compiled["bands"][key] if key.endswith(".x") else compiled[key]
        print(f"  {label:<18} {a:11.0f} {b:10.0f} {b / a:9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
