"""The error answers each route lists in OpenAPI, with their schema."""

from __future__ import annotations

from typing import Any

from sudoku_batch.api.schemas import Problem

Responses = dict[int | str, dict[str, Any]]

# Every authenticated route can answer these.
ERRORS: Responses = {
    401: {"model": Problem, "description": "no valid API key"},
    503: {
        "model": Problem,
        "description": "the database or the data folder is unavailable; try again shortly",
    },
}
NOT_FOUND: Responses = {
    **ERRORS,
    404: {"model": Problem, "description": "no such batch or puzzle for this key"},
}
UPLOAD_ERRORS: Responses = {
    **ERRORS,
    413: {"model": Problem, "description": "a file or the request is over the size limit"},
    415: {"model": Problem, "description": "a file's content is not of an accepted kind"},
    422: {"model": Problem, "description": "the form is not valid"},
    507: {"model": Problem, "description": "no space left to store the files; nothing was kept"},
}
CORRECTION_ERRORS: Responses = {
    **NOT_FOUND,
    403: {"model": Problem, "description": "sent with the login cookie but not by its pages"},
    409: {"model": Problem, "description": "the puzzle is being read or solved, or is text"},
    422: {"model": Problem, "description": "no such cell on this grid, or no such digit"},
}


def with_content(media_types: tuple[str, ...], errors: Responses = NOT_FOUND) -> Responses:
    """``errors`` and a 200 answer of these media types (a file or a page, not JSON)."""
    return {**errors, 200: {"content": {media: {} for media in media_types}}}
