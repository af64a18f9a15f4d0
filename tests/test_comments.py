"""Comments and docstrings of the product code say why, without measurements or the story of
what was tried: timings, issue numbers, sessions and rounds belong to the benches' output,
docs/measurements.md and git log."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO_ROOT

NOT_PRODUCT = {"tests", "bench", "build", "dist", "examples", "docs"}
MEASUREMENT_OR_STORY = re.compile(
    r"\d\s*(?:CPU-)?(?:ms|us|µs)\b|\d\s*CPU-s\b|\bissue \d+|\b\w+th (?:session|round)\b"
    r"|docs/(?:throughput|recognition)\.md|\bMeasured\b"
)


def product_sources() -> Iterator[Path]:
    for path in REPO_ROOT.rglob("*.py"):
        parts = path.relative_to(REPO_ROOT).parts
        if parts[0] not in NOT_PRODUCT and not any(part.startswith(".") for part in parts):
            yield path


def comment_lines(source: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every comment and triple-quoted string's line."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = token.string
        triple = token.type == tokenize.STRING and text.lstrip("rbuRBU")[:3] in ('"""', "'''")
        if token.type == tokenize.COMMENT or triple:
            for offset, line in enumerate(text.splitlines()):
                yield token.start[0] + offset, line


def test_no_measurement_or_story_in_product_comments() -> None:
    found = [
        f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}"
        for path in product_sources()
        for number, line in comment_lines(path.read_text(encoding="utf-8"))
        if MEASUREMENT_OR_STORY.search(line)
    ]
    assert found == []


def test_the_check_finds_a_measurement() -> None:
    source = '"""Fast."""\n\nX = 1  # saves 28 CPU-ms (issue 13)\n'
    found = [line for _, line in comment_lines(source) if MEASUREMENT_OR_STORY.search(line)]
    assert found == ["# saves 28 CPU-ms (issue 13)"]
