"""An app served by uvicorn in this process, counting the body bytes it reads, and a client on a
raw socket that declares a large body and sends it only as far as the server lets it: what
the server consumed of an upload is measured, not assumed."""

from __future__ import annotations

import re
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CHUNK = 64 * 1024
STALL_SECONDS = 3.0  # the server neither reads nor answers for this long: it stopped reading
START_LIMIT = 30.0


class BodyCounter:
    """ASGI wrapper: how many body bytes the app has read (``read``, reset per request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.read = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.read = 0

        async def counted() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                self.read += len(message.get("body", b""))
            return message

        await self.app(scope, counted, send)


@contextmanager
def served(app: ASGIApp) -> Iterator[tuple[str, int, BodyCounter]]:
    """``app`` on a free port of 127.0.0.1 (host, port, its counter) until the block ends."""
    counter = BodyCounter(app)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(counter, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_LIMIT
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield "127.0.0.1", port, counter
    finally:
        server.should_exit = True
        thread.join(START_LIMIT)


@dataclass
class Upload:
    status: int | None  # of the final answer; None if the connection ended without one
    continued: bool  # whether the server asked for the body (100 Continue)
    body_sent: int  # body bytes the kernel took from the client (an upper bound of what the
    # server read: socket buffers included)
    answer: bytes


def raw_upload(
    host: str, port: int, path: str, declared: int, headers: dict[str, str], expect: bool
) -> Upload:
    """POST a multipart body of ``declared`` bytes to ``path``. With ``expect`` the body is
    sent only after ``100 Continue``, as curl and most clients do; without, it is sent at once,
    as far as the server takes it."""
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Content-Type: multipart/form-data; boundary=probe",
        f"Content-Length: {declared}",
        *(f"{name}: {value}" for name, value in headers.items()),
        *(["Expect: 100-continue"] if expect else []),
    ]
    sent = 0
    answer = b""
    continued = False
    may_send = not expect
    body = _multipart_body(declared)
    with socket.create_connection((host, port)) as client:
        client.setblocking(False)
        _send_all(client, ("\r\n".join(head) + "\r\n\r\n").encode())
        last_move = time.monotonic()
        while time.monotonic() - last_move < STALL_SECONDS:
            writing = [client] if may_send and sent < declared else []
            readable, writable, _ = select.select([client], writing, [], 0.2)
            if readable:
                try:
                    data = client.recv(CHUNK)
                except ConnectionError:
                    break
                if not data:
                    break
                answer += data
                last_move = time.monotonic()
                if answer.startswith(b"HTTP/1.1 100") and b"\r\n\r\n" in answer:
                    continued = may_send = True
                    answer = answer.split(b"\r\n\r\n", 1)[1]
                if _final_status(answer) is not None:
                    may_send = False  # answered: a client stops sending
            if writable:
                try:
                    sent += client.send(body(sent))
                except (BlockingIOError, InterruptedError):
                    continue
                except ConnectionError:
                    break
                last_move = time.monotonic()
    return Upload(_final_status(answer), continued, sent, answer)


def _multipart_body(size: int) -> Callable[[int], bytes]:
    """A well-formed multipart body of ``size`` bytes (one PNG file of filler), by offset: the
    bytes from ``offset`` on, at most a chunk."""
    head = (
        b'--probe\r\nContent-Disposition: form-data; name="files"; filename="big.png"\r\n'
        b"Content-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n"
    )
    tail = b"\r\n--probe--\r\n"
    filler = size - len(head) - len(tail)
    assert filler >= 0, "too small a body for its multipart frame"

    def chunk(offset: int) -> bytes:
        end = min(offset + CHUNK, size)
        tail_at = len(head) + filler
        zeros = max(0, min(end, tail_at) - max(offset, len(head)))
        return head[offset:end] + b"\x00" * zeros + tail[max(0, offset - tail_at) : end - tail_at]

    return chunk


def _send_all(client: socket.socket, data: bytes) -> None:
    while data:
        select.select([], [client], [], STALL_SECONDS)
        data = data[client.send(data) :]


def _final_status(answer: bytes) -> int | None:
    found = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    return int(found.group(1)) if found and b"\r\n\r\n" in answer else None
