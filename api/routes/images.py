"""A puzzle's images: the board as read, and the page region with the solution drawn in,
served from the store behind the key check (a local folder's file as it is, an object
store's streamed through)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, Response, StreamingResponse
from sqlalchemy import select

from sudoku_batch.api.auth import ApiKeyId
from sudoku_batch.api.deps import Db, StoredFiles, owned_puzzle
from sudoku_batch.api.responses import with_content
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.models import Solution

router = APIRouter()


@router.get(
    "/puzzles/{puzzle_id}/board.png",
    response_class=FileResponse,
    responses=with_content(("image/png",)),
)
def get_board(puzzle_id: UUID, key_id: ApiKeyId, db: Db, artifacts: StoredFiles) -> Response:
    """The board as read: cut from the page, squared and turned upright (the cells of
    ``GET /puzzles/{puzzle_id}`` are on its lattice)."""
    puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
    if puzzle.board_image_path is None:
        raise HTTPException(404, f"puzzle {puzzle_id} has no board image (given as text)")
    if not artifacts.storage.exists(puzzle.board_image_path):
        raise HTTPException(404, f"the board image of puzzle {puzzle_id} is missing from the store")
    return stored_response(artifacts, puzzle.board_image_path, "image/png")


@router.get(
    "/puzzles/{puzzle_id}/render.png",
    response_class=FileResponse,
    responses=with_content(("image/jpeg", "image/png")),
)
def get_render(puzzle_id: UUID, key_id: ApiKeyId, db: Db, artifacts: StoredFiles) -> Response:
    """The page region of the puzzle with the solution drawn in."""
    puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
    render_path = db.scalar(select(Solution.render_path).where(Solution.puzzle_id == puzzle.id))
    if render_path is None:
        raise HTTPException(
            404, f"puzzle {puzzle_id} has no render (not solved yet, or given as text)"
        )
    if not artifacts.storage.exists(render_path):
        raise HTTPException(404, f"the render of puzzle {puzzle_id} is missing from the store")
    # Renders are JPEG; older batches' are PNG. The URL stays as clients know it.
    media_type = "image/png" if render_path.endswith(".png") else "image/jpeg"
    return stored_response(artifacts, render_path, media_type)


def stored_response(artifacts: Artifacts, key: str, media_type: str) -> Response:
    path = artifacts.storage.folder_file(key)
    if path is not None:
        return FileResponse(path, media_type=media_type)
    return StreamingResponse(artifacts.storage.chunks(key), media_type=media_type)
