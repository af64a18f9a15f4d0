"""The bad-input corpus through the API and a real Celery worker: the server applies the
rules the embedded runner does (one listing, the same limits), so every unit gets a record
with a user-facing code, the good inputs beside them are solved, and memory stays bounded."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import psutil
import pytest

from sudoku_batch.commands.submit import upload_names
from sudoku_batch.settings import Settings
from tests.bad_inputs import make_corpus
from tests.integration.conftest import (
    RUN_ID,
    Service,
    api_client,
    celery_argv,
    settings_env,
    wait_until,
)
from tests.watch import tree_rss

pytestmark = pytest.mark.services

BATCH_LIMIT = 300.0
RSS_LIMIT = 2 << 30


def as_sent(label: str) -> str:
    """A record's source on the server: ``submit`` sends base names only, so a file's label
    loses its folders (a zip member keeps its archive's name in front, and its own name as
    written in the archive)."""
    archive = label.find(".zip/")
    if archive < 0:
        return label.rsplit("/", 1)[-1]
    return label[label.rfind("/", 0, archive) + 1 :]


def test_the_bad_input_corpus_through_the_api_and_a_real_worker(
    make_settings: Callable[[str], Settings], tmp_path: Path
) -> None:
    settings = make_settings("bad-inputs")
    corpus = make_corpus(tmp_path / "in", with_special_files=False)
    files, refused = upload_names(corpus.inputs)
    # submit refuses what it cannot send (and says so): a missing path, an empty file.
    not_sent = {problem.split(":")[0] for problem in refused}
    assert not_sent == {str(tmp_path / "in/missing.png"), str(tmp_path / "in/bad/empty.png")}
    assert not any(name.endswith("truth.json") for name, _ in files)
    worker = Service(
        "worker",
        celery_argv(
            "worker",
            "--pool=solo",
            "--queues=ingest,rectify,ocr,solve",
            f"--hostname=bad-inputs-{RUN_ID}@localhost",
            "--without-mingle",
        ),
        {**settings_env(settings), "OMP_NUM_THREADS": "1"},
        tmp_path,
    )
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        process = psutil.Process(worker.process.pid)
        while not done.is_set():
            try:
                peak[0] = max(peak[0], tree_rss(process))
            except psutil.Error:
                return
            done.wait(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with api_client(settings) as api, ExitStack() as opened:
            parts = [
                ("files", (name, opened.enter_context(path.open("rb")))) for name, path in files
            ]
            submitted = api.post("/batches", files=parts)
            assert submitted.status_code == 201, submitted.text
            batch_id = submitted.json()["batch_id"]

            def finished() -> bool:
                if not worker.alive():
                    pytest.fail(f"the worker died:\n{worker.log_tail()}")
                return api.get(f"/batches/{batch_id}").json()["finished"]

            wait_until(finished, BATCH_LIMIT, f"batch {batch_id} to finish", 1.0)
            results = api.get(f"/batches/{batch_id}/results", params={"limit": 1000}).json()
            records = results["items"]
            assert len(records) == results["total"]
    finally:
        done.set()
        watcher.join()
        worker.stop()

    assert not [r for r in records if r["error_code"] == "internal_error"], records
    for kind in corpus.kinds:
        if kind.label in not_sent:
            continue
        mine = [r for r in records if r["source"] == as_sent(kind.label)]
        assert mine, f"no record for {kind.name} ({kind.label}):\n{worker.log_tail()}"
        for record in mine:
            assert (record["error_code"] or record["status"]) in kind.codes, (kind, record)
    for label in corpus.good:
        mine = [r for r in records if r["source"] == as_sent(label)]
        assert mine and all(r["status"] == "solved" for r in mine), (label, mine)
    assert peak[0] < RSS_LIMIT, f"peak RSS {peak[0] / 2**20:.0f} MiB"
