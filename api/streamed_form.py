"""Uploads streamed into the store as they arrive: an upload route's form is parsed by
Starlette's multipart parser, but each file part goes straight into a staged upload in the
store (``Storage.open_upload``, under ``incoming/<uuid>/``) rather than into a temporary file
of this host, and only its first KiB stays in memory, for the content checks
(``api.uploads``). A file past ``MAX_FILE_MB`` is dropped from the store and only counted, for
its 413. A request that fails (the client gone, a malformed body, over the request's limit)
leaves no staged upload; ``Submission`` moves the files it keeps to their batch's keys, and
``StreamedRequest.discard`` removes the others.
"""

from __future__ import annotations

from contextlib import aclosing
from typing import Any

import anyio
from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from python_multipart.multipart import parse_options_header
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException, MultiPartParser

from sudoku_batch.store.incoming import request_folder
from sudoku_batch.store.storage import StagedUpload, Storage

HEAD_BYTES = 1024  # what the content checks read


class StagedFile:
    """The file object of a streamed upload: written into ``staged`` up to ``max_bytes`` (then
    dropped from the store, still counted); reads give its first bytes."""

    def __init__(self, staged: StagedUpload, key: str, max_bytes: int):
        self.staged: StagedUpload | None = staged
        self.key = key
        self.max_bytes = max_bytes
        self.size = 0
        self.head = b""
        self.finished = False

    def write(self, data: bytes) -> None:
        if len(self.head) < HEAD_BYTES:
            self.head += data[: HEAD_BYTES - len(self.head)]
        self.size += len(data)
        if self.staged is None:
            return
        if self.size > self.max_bytes:
            self.close()
            return
        self.staged.write(data)

    def seek(self, offset: int) -> None:
        # Starlette seeks a file to its start once its part has ended: the upload is whole.
        if self.staged is not None and not self.finished:
            self.staged.finish()
            self.finished = True

    def read(self, size: int = -1) -> bytes:
        return self.head if size < 0 else self.head[:size]

    def close(self) -> None:
        """Drop an upload not finished from the store."""
        if self.staged is not None and not self.finished:
            staged, self.staged = self.staged, None
            staged.abort()


class StoreWritingParser(MultiPartParser):
    """Starlette's multipart parser, each file part written into the store."""

    def __init__(self, *args: Any, storage: Storage, folder: str, max_bytes: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.storage = storage
        self.folder = folder
        self.max_bytes = max_bytes
        self.staged: list[StagedFile] = []

    def on_headers_finished(self) -> None:
        super().on_headers_finished()
        part = self._current_part
        if part.file is None:
            return
        # The spooled file Starlette made is never written; a failed parse aborts the staged
        # uploads in a thread (``parse``), not in the event loop.
        self._files_to_close_on_error.pop().close()
        key = f"{self.folder}/{len(self.staged):04d}"
        staged = StagedFile(self.storage.open_upload(key), key, self.max_bytes)
        self.staged.append(staged)
        part.file = UploadFile(
            file=staged,  # type: ignore[arg-type]
            size=0,
            filename=part.file.filename,
            headers=part.file.headers,
        )

    async def parse(self) -> FormData:
        try:
            return await super().parse()
        except BaseException:
            with anyio.CancelScope(shield=True):  # a cancelled request is aborted too
                await run_in_threadpool(self._abort)
            raise

    def _abort(self) -> None:
        for staged in self.staged:
            staged.close()


class StreamedRequest(Request):
    """A request whose multipart form streams its files into ``storage``."""

    def __init__(self, request: Request, storage: Storage, max_bytes: int):
        super().__init__(request.scope, request.receive)
        self.storage = storage
        self.max_bytes = max_bytes
        self.folder = request_folder()
        self.staged: list[StagedFile] = []

    async def _get_form(
        self,
        *,
        max_files: int | float = 1000,
        max_fields: int | float = 1000,
        max_part_size: int = 1024 * 1024,
    ) -> FormData:
        content_type, _ = parse_options_header(self.headers.get("content-type"))
        if self._form is not None or content_type != b"multipart/form-data":
            return await super()._get_form(
                max_files=max_files, max_fields=max_fields, max_part_size=max_part_size
            )
        # As Starlette's own, with the store-writing parser.
        try:
            async with aclosing(self.stream()) as stream:
                parser = StoreWritingParser(
                    self.headers,
                    stream,
                    max_files=max_files,
                    max_fields=max_fields,
                    max_part_size=max_part_size,
                    storage=self.storage,
                    folder=self.folder,
                    max_bytes=self.max_bytes,
                )
                self.staged = parser.staged
                self._form = await parser.parse()
        except MultiPartException as error:
            raise HTTPException(400, error.message) from error
        return self._form

    def discard(self) -> None:
        """Remove the staged uploads no batch claimed (the others are gone already)."""
        self.storage.remove([f.key for f in self.staged])
