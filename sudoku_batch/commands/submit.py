"""``sudoku-batch submit``: upload inputs to the API, optionally wait and fetch the results.

With ``--text`` the inputs are text files of puzzles, one per line (the ``solve-text``
format), solved as written on the solve queue; each line's record has the line number as
``page``.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from sudoku_batch.commands import option_types
from sudoku_batch.commands.text_options import add_text_batch_arguments, text_batch_box
from sudoku_batch.errors import BadArguments
from sudoku_batch.follow import follow_batch
from sudoku_batch.outcome import ExitCode, exit_code, summary_lines
from sudoku_batch.pipeline.errors import SudokuBatchError

RESULTS_PAGE = 1000


class ApiError(SudokuBatchError):
    """The API could not be reached or refused the request."""

    code = "api_error"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "submit",
        help="send images, PDFs, zips or folders (or, with --text, puzzle text files) to the "
        "API as one batch",
        description="Upload inputs as one batch; with --wait, follow it and print the results.",
    )
    parser.add_argument("inputs", nargs="+", metavar="INPUT", type=Path)
    add_text_batch_arguments(parser)
    parser.add_argument(
        "--api", help="API base URL (default: SUDOKU_BATCH_API_URL or http://127.0.0.1:8000)"
    )
    parser.add_argument(
        "--api-key", help="the API key (default: SUDOKU_BATCH_API_KEY; see `keys create`)"
    )
    parser.add_argument("--label", help="a name for the batch")
    parser.add_argument("--wait", action="store_true", help="wait for the batch to finish")
    parser.add_argument(
        "--out",
        type=option_types.out_folder,
        metavar="DIR",
        help="with --wait, write DIR/results.jsonl and DIR/renders/ (default: print the results)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_submit)


def _submit(args: argparse.Namespace) -> int:
    box = text_batch_box(args)
    from sudoku_batch.settings import Settings  # pydantic: imported when used

    settings = Settings.from_env()
    files, refused = upload_names(args.inputs)
    for problem in refused:
        print(f"sudoku-batch: not submitted: {problem}", file=sys.stderr)
    if not files:
        raise BadArguments("nothing to submit: no input could be read")
    with api_client(args.api or settings.api_url, args.api_key or settings.api_key) as client:
        with ExitStack() as stack:
            parts = [
                ("files", (name, stack.enter_context(path.open("rb")))) for name, path in files
            ]
            data = {"label": args.label} if args.label else {}
            if box:
                data["box"] = f"{box.box_rows}x{box.box_cols}"
            endpoint = "/text-batches" if args.text else "/batches"
            batch = _call(client, "POST", endpoint, files=parts, data=data)
        batch_id = batch["batch_id"]
        print(f"batch {batch_id}: {len(files)} file(s) submitted", file=sys.stderr)
        if not args.wait:
            print(batch_id)
            return ExitCode.SOME_INPUTS_FAILED if refused else ExitCode.OK
        wait_for(client, batch_id, progress=not args.no_progress)
        records = all_results(client, batch_id)
        if args.out:
            fetch_renders(client, records, args.out)
    lines = "".join(json.dumps(record) + "\n" for record in records)
    if args.out:
        (args.out / "results.jsonl").write_text(lines, encoding="utf-8")
        print(f"results: {args.out / 'results.jsonl'}", file=sys.stderr)
    else:
        sys.stdout.write(lines)
    results = str(args.out / "results.jsonl") if args.out else "the records printed"
    print("\n".join(summary_lines(records, results)), file=sys.stderr)
    code = exit_code(records)
    if refused and code in (ExitCode.OK, ExitCode.SOME_NOT_SOLVED, ExitCode.SOME_NEED_REVIEW):
        return ExitCode.SOME_INPUTS_FAILED
    return code


def fetch_renders(client: Any, records: list[dict[str, Any]], out: Path) -> None:
    """Download each render into out/renders/; records then point at the local file."""
    (out / "renders").mkdir(parents=True, exist_ok=True)
    for record in records:
        if record.get("render_path"):
            response = client.get(record["render_path"])
            # Renders are JPEG, older batches' PNG: named by what came.
            is_png = response.headers.get("content-type", "").startswith("image/png")
            local = f"renders/puzzle-{record['puzzle_id']}.{'png' if is_png else 'jpg'}"
            if response.is_success:
                (out / local).write_bytes(response.content)
                record["render_path"] = local


def api_client(url: str, key: str) -> Any:
    """An HTTP client of the API that sends ``key``."""
    import httpx

    if not key:
        raise ApiError("an API key is needed: --api-key KEY or SUDOKU_BATCH_API_KEY")
    return httpx.Client(
        base_url=url.rstrip("/"),
        timeout=httpx.Timeout(30.0, write=None),
        headers={"Authorization": f"Bearer {key}"},
    )


def all_results(client: Any, batch_id: str) -> list[dict[str, Any]]:
    """Every results record of a batch, page by page."""
    records: list[dict[str, Any]] = []
    while True:
        page = _call(
            client,
            "GET",
            f"/batches/{batch_id}/results",
            params={"offset": len(records), "limit": RESULTS_PAGE},
        )
        records += page["items"]
        if not page["items"] or len(records) >= page["total"]:
            return records


def upload_names(inputs: list[Path]) -> tuple[list[tuple[str, Path]], list[str]]:
    """(base name, path) for every input file, by the rules ``run`` follows
    (pipeline.ingest.walk: a folder's notes and truth.json stay home); and the messages of
    paths that are no input (missing, a FIFO, a dangling link), which are not uploaded. Only
    base names leave this machine: a client's folders are nobody else's business."""
    from sudoku_batch.pipeline.ingest.walk import input_paths

    files, refused = [], []
    for found in input_paths(inputs):
        if found.problem is None:
            files.append((Path(found.label).name, found.path))
        else:
            refused.append(found.problem)
    return files, refused


def wait_for(client: Any, batch_id: str, progress: bool) -> dict[str, Any]:
    """Follow the batch until nothing is left to do (``sudoku_batch.follow``), with a bar over
    all known work items."""
    from tqdm import tqdm

    with tqdm(desc=f"batch {batch_id}", unit="item", disable=not progress) as bar:

        def show(status: dict[str, Any]) -> None:
            known = sum(sum(status[kind].values()) for kind in ("inputs", "pages", "puzzles"))
            bar.total = known
            bar.n = known - status["unfinished"]
            bar.set_postfix(status["puzzles"], refresh=False)
            bar.refresh()

        return follow_batch(
            lambda params: _call(client, "GET", f"/batches/{batch_id}", params=params), show
        )


def _call(client: Any, method: str, url: str, **kwargs: Any) -> Any:
    import httpx

    try:
        response = client.request(method, url, **kwargs)
    except httpx.HTTPError as error:
        raise ApiError(f"cannot reach the API at {client.base_url}: {error}") from error
    if response.is_error:
        try:
            detail = response.json().get("detail", response.text)
        except ValueError:
            detail = response.text
        raise ApiError(f"the API answered {response.status_code}: {detail}")
    return response.json()
