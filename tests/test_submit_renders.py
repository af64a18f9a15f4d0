"""`submit --wait --out DIR` names each fetched render by what the API sent (JPEG since issue
13, PNG for batches from before)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sudoku_batch.commands.submit import fetch_renders


@dataclass
class _Response:
    content_type: str
    content: bytes = b"image"
    is_success: bool = True
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.headers = {"content-type": self.content_type}


class _Client:
    def __init__(self, types: dict[str, str]):
        self.types = types

    def get(self, url: str) -> _Response:
        return _Response(self.types[url])


def test_renders_are_named_by_their_content_type(tmp_path: Path) -> None:
    records = [
        {"puzzle_id": "a", "render_path": "/puzzles/a/render.png"},
        {"puzzle_id": "b", "render_path": "/puzzles/b/render.png"},
        {"puzzle_id": "c", "render_path": None},
    ]
    client = _Client({"/puzzles/a/render.png": "image/jpeg", "/puzzles/b/render.png": "image/png"})
    fetch_renders(client, records, tmp_path)
    assert [record["render_path"] for record in records] == [
        "renders/puzzle-a.jpg",
        "renders/puzzle-b.png",
        None,
    ]
    assert (tmp_path / "renders/puzzle-a.jpg").read_bytes() == b"image"
