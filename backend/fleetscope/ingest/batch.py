"""Bulk paths in without the server: file import (NDJSON, NDJSON.gz) and ``rebuild``.

Both drive the pipeline from the calling thread in batches of ``batch_size`` messages, one
transaction each. The fact store is a single-writer DuckDB file, so these run while the
server is stopped; with a running server use ``POST /v2/Ingest/vda5050``.
"""

import gc
import itertools
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TypeVar

from fleetscope.facts.rawlog import RawFrame
from fleetscope.i18n.refusals import GZIP_CUT_OFF, GZIP_DAMAGED, REFUSED
from fleetscope.i18n.text import Message
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.ingest.ndjson import numbered_lines, parse_line
from fleetscope.ingest.pipeline import IngestPipeline

DEFAULT_BATCH_SIZE = 10_000
# The dead letters' source of everything these bulk paths take (their cap per minute).
IMPORT_SOURCE = "import"
T = TypeVar("T")
_GZIP_MAGIC = b"\x1f\x8b"
_GZIP_WINDOW = 16 + zlib.MAX_WBITS  # zlib reads one gzip member (header, data, CRC)
_READ_SIZE = 1 << 16
# Allocations between young-generation collections while a bulk path runs (default 700).
_BULK_GC_THRESHOLD = 100_000


@dataclass(slots=True)
class ImportResult:
    accepted: int = 0
    duplicates: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    seconds: float = 0.0
    incomplete: bool = False  # the file's data broke off or was damaged (told in ``rejected``)

    @property
    def lines(self) -> int:
        return self.accepted + self.duplicates + len(self.rejected)

    @property
    def per_second(self) -> float:
        return self.lines / self.seconds if self.seconds > 0 else 0.0


@dataclass(slots=True)
class RebuildResult:
    frames: int = 0
    skipped: int = 0
    seconds: float = 0.0


@contextmanager
def bulk_collection() -> Iterator[None]:
    """Garbage collection tuned for a bulk load in this process (import, rebuild, backfill).

    A batch keeps tens of thousands of objects alive until it is written, and with the
    default thresholds the collector traverses them again and again: about a fifth of the
    CPU time of an import. The garbage made here is acyclic (reference counting frees it),
    so collections can be rare; ``gc.freeze`` also keeps everything that existed before
    (modules, app store, caches) out of the full collections. Restored afterwards.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(thresholds[0], _BULK_GC_THRESHOLD), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@dataclass(slots=True)
class GzipDamage:
    """Why a gzip file's data ended early (None: it is whole), after how many lines."""

    problem: Message | None = None
    after_line: int = 0


def _gzip_lines(raw: IO[bytes], damage: GzipDamage) -> Iterator[bytes]:
    """The lines of gzip data (members one after the other), read as far as it goes: a file
    cut short gives its complete lines and the cut one; at damaged data the lines before it.
    ``damage`` then says where (``gzip.GzipFile`` gave none of the lines of the last buffer)."""
    inflate, pending, lines = zlib.decompressobj(_GZIP_WINDOW), b"", 0
    while chunk := raw.read(_READ_SIZE):
        while chunk:
            before = inflate.copy()
            try:
                data = inflate.decompress(chunk)
            except zlib.error as error:
                # The data up to the damage, which the failed call did not return.
                *complete, pending = (pending + _inflate_until_error(before, chunk)).split(b"\n")
                yield from [*complete, pending] if pending else complete
                lines += len(complete)
                damage.problem = GZIP_DAMAGED(line=lines, detail=str(error))
                damage.after_line = lines
                return
            *complete, pending = (pending + data).split(b"\n")
            lines += len(complete)
            yield from complete
            chunk = inflate.unused_data  # the next member, if any
            if chunk:
                inflate = zlib.decompressobj(_GZIP_WINDOW)
    if pending:
        yield pending
    if not inflate.eof:
        damage.problem, damage.after_line = GZIP_CUT_OFF(line=lines), lines


def _inflate_until_error(inflate: "zlib._Decompress", chunk: bytes, piece: int = 256) -> bytes:
    """What ``inflate`` gives of ``chunk`` up to the byte it fails on: fed in pieces, and the
    piece that fails once more byte by byte."""
    found = bytearray()
    for start in range(0, len(chunk), piece):
        before = inflate.copy()
        try:
            found += inflate.decompress(chunk[start : start + piece])
        except zlib.error:
            if piece > 1:
                found += _inflate_until_error(before, chunk[start : start + piece], piece=1)
            break
    return bytes(found)


@contextmanager
def open_ndjson(path: Path, damage: GzipDamage) -> Iterator[tuple[Iterable[bytes], IO[bytes]]]:
    """The file's lines as bytes (gzip is recognised by its magic number, not the name) and
    the file under them, whose position is the bytes read so far (compressed for gzip)."""
    with path.open("rb") as raw:
        compressed = raw.read(2) == _GZIP_MAGIC
        raw.seek(0)
        yield (_gzip_lines(raw, damage) if compressed else raw), raw


def ingest_lines(
    pipeline: IngestPipeline,
    lines: Iterable[bytes],
    *,
    site_id: int | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[ImportResult], None] | None = None,
) -> ImportResult:
    """Ingest NDJSON lines (``{"topic", "payload"}``), streamed in batches."""

    def parse(chunk: list[tuple[int, bytes]], received_at: datetime) -> list[RawMessage]:
        return [
            parse_line(line, received_at=received_at, site_id=site_id, source=IMPORT_SOURCE)
            for _, line in chunk
        ]

    return _ingest(pipeline, numbered_lines(lines), parse, batch_size, progress)


def ingest_messages(
    pipeline: IngestPipeline,
    messages: Iterable[tuple[str, bytes]],
    *,
    site_id: int | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[ImportResult], None] | None = None,
) -> ImportResult:
    """Ingest (topic, payload) pairs straight from a producer such as the simulator.

    Skips the NDJSON envelope; "line" numbers in the result count the messages from 1.
    """

    def wrap(chunk: list[tuple[int, tuple[str, bytes]]], received_at: datetime) -> list[RawMessage]:
        return [RawMessage(t, p, received_at, site_id, source=IMPORT_SOURCE) for _, (t, p) in chunk]

    return _ingest(pipeline, enumerate(messages, start=1), wrap, batch_size, progress)


def _ingest(
    pipeline: IngestPipeline,
    numbered: Iterator[tuple[int, T]],
    to_messages: Callable[[list[tuple[int, T]], datetime], list[RawMessage]],
    batch_size: int,
    progress: Callable[[ImportResult], None] | None,
) -> ImportResult:
    result = ImportResult()
    started = time.perf_counter()
    with bulk_collection():
        while chunk := list(itertools.islice(numbered, batch_size)):
            outcome = pipeline.process(to_messages(chunk, datetime.now(UTC)))
            result.accepted += outcome.accepted
            result.duplicates += outcome.duplicates
            if outcome.reasons or Verdict.REJECTED in outcome.verdicts:
                for index, verdict in enumerate(outcome.verdicts):
                    if verdict is Verdict.REJECTED:
                        reason = str(outcome.reasons.get(index, REFUSED()))
                        result.rejected.append((chunk[index][0], reason))
            result.seconds = time.perf_counter() - started
            if progress is not None:
                progress(result)
    result.seconds = time.perf_counter() - started
    return result


def import_file(
    pipeline: IngestPipeline,
    path: Path,
    *,
    site_id: int | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[ImportResult, int], None] | None = None,
) -> ImportResult:
    """Import an NDJSON (or NDJSON.gz) file; ``progress`` gets the result so far and the
    bytes of the file read so far after each batch. Gzip data that breaks off or is damaged
    is one more rejected line (after the complete lines, all stored), not an abort."""
    damage = GzipDamage()
    with open_ndjson(path, damage) as (stream, raw):
        on_batch = None if progress is None else (lambda result: progress(result, raw.tell()))
        result = ingest_lines(
            pipeline, stream, site_id=site_id, batch_size=batch_size, progress=on_batch
        )
    if damage.problem is not None:
        result.rejected.append((damage.after_line + 1, str(damage.problem)))
        result.incomplete = True
    return result


def _chunks(frames: Iterator[RawFrame], size: int) -> Iterator[list[RawFrame]]:
    while chunk := list(itertools.islice(frames, size)):
        yield chunk


def rebuild(
    pipeline: IngestPipeline,
    *,
    batch_size: int = 20_000,
    progress: Callable[[RebuildResult], None] | None = None,
) -> RebuildResult:
    """Drop every fact, rollup and snapshot and replay the raw log through fresh derivers.

    ``progress`` gets the result so far after each batch (of ``raw_frame_count`` frames).
    """
    result = RebuildResult()
    started = time.perf_counter()
    pipeline.store.reset_derived()
    pipeline.reset()
    with bulk_collection():
        for chunk in _chunks(pipeline.store.iter_raw_frames(), batch_size):
            result.skipped += pipeline.replay(chunk)
            result.frames += len(chunk)
            if progress is not None:
                result.seconds = time.perf_counter() - started
                progress(result)
    result.seconds = time.perf_counter() - started
    return result
