"""The API's ``ResultRecord`` has every field of the results contract: a field the view gives
but the model lacks would be dropped from the API's results without a word."""

from __future__ import annotations

from sudoku_batch.api.schemas import ResultRecord
from sudoku_batch.store.exports import CSV_COLUMNS

# Row ids of the database, which the API does not show (it shows public ids).
ROW_IDS = {"input_file_id", "page_id"}


def test_the_api_record_has_every_field_of_results_jsonl() -> None:
    assert set(CSV_COLUMNS) - ROW_IDS - set(ResultRecord.model_fields) == set()
