"""The summary names each failed input with its code and message, up to a screenful, then
says how many more the results file holds (as OCRmyPDF tells each file's error)."""

from __future__ import annotations

from sudoku_batch.outcome import failure_lines, summary_lines


def _failed(n: int) -> dict:
    return {
        "source": f"in/{n}.png",
        "page": 1,
        "index": None,
        "status": "failed",
        "error_code": "unreadable_input",
        "message": f"in/{n}.png: the file is not a readable image",
    }


SOLVED = {"source": "in/ok.png", "page": 1, "index": 0, "status": "solved", "puzzle_id": 1}
CRASHED = {
    "source": "book.pdf",
    "page": 3,
    "index": None,
    "status": "failed",
    "error_code": "worker_crashed",
    "message": "the process reading this page died (SIGKILL)",
}


def test_each_failure_is_listed_with_its_input_code_and_message() -> None:
    lines = summary_lines([SOLVED, _failed(1), CRASHED], "out/results.jsonl")
    assert lines[1:] == [
        "  unreadable_input: in/1.png: the file is not a readable image",
        "  worker_crashed: book.pdf page 3: the process reading this page died (SIGKILL)",
    ]
    assert "2 failure(s)" in lines[0]


def test_past_a_screenful_the_rest_are_counted_and_found_in_the_results_file() -> None:
    lines = failure_lines([_failed(n) for n in range(30)], "out/results.jsonl", limit=10)
    assert len(lines) == 10
    assert lines[:9] == [
        f"  unreadable_input: in/{n}.png: the file is not a readable image" for n in range(9)
    ]
    assert lines[9] == "  ... and 21 more failure(s) in out/results.jsonl"
    assert len(failure_lines([_failed(n) for n in range(10)], "r", limit=10)) == 10
    assert failure_lines([SOLVED], "r") == []
