"""``fleetscope import`` (NDJSON / NDJSON.gz) and ``fleetscope rebuild`` (facts from raw log)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fleetscope.appstore.db import engine_for, make_session_factory, migrate_engine
from fleetscope.cli.progress import Step, progress_report
from fleetscope.cli.store import cli_store, fail
from fleetscope.ingest.tokens import find_site
from fleetscope.settings import get_settings

if TYPE_CHECKING:
    from fleetscope.ingest.batch import ImportResult, RebuildResult
    from fleetscope.ingest.pipeline import IngestPipeline

# The pipeline (decoding, derivation, DuckDB) is imported when a command runs, so the rest
# of the command line starts fast.

_SHOWN_REJECTIONS = 20


@contextmanager
def offline_pipeline() -> Iterator["IngestPipeline"]:
    """A pipeline on the configured stores, for commands that run without the server."""
    from fleetscope.facts.store import FactStore, FactStoreLockedError
    from fleetscope.ingest.service import build_pipeline

    settings = get_settings()
    engine = engine_for(settings)
    try:
        migrate_engine(engine)
        try:
            store = FactStore(
                settings.resolved_facts_path(), offline_after_s=settings.offline_after_seconds
            )
        except FactStoreLockedError as err:
            raise fail(str(err)) from None
        with store:
            yield build_pipeline(
                settings, session_factory=make_session_factory(engine), store=store
            )
    finally:
        engine.dispose()


def import_command(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="NDJSON or NDJSON.gz file.")
    ],
    site: Annotated[
        str | None,
        typer.Option(
            help="Site (id or name) the messages come from: they are for that site's "
            "vehicles (new ones are registered there), as with that site's API token. "
            "Without it, the site whose MQTT interface matches each topic."
        ),
    ] = None,
    batch_size: Annotated[int, typer.Option(min=100, help="Messages per transaction.")] = 10_000,
) -> None:
    """Import VDA 5050 messages, one {"topic": ..., "payload": {...}} per line."""
    from fleetscope.ingest.batch import import_file

    site_id = None
    if site is not None:
        with cli_store() as session:
            site_id = find_site(session, reference=site).id
    size = file.stat().st_size
    with offline_pipeline() as pipeline, progress_report("import") as report:

        def show(so_far: "ImportResult", bytes_read: int) -> None:
            step = Step(done=bytes_read, total=size, messages=so_far.lines, unit="bytes")
            report.update(step)

        result = import_file(pipeline, file, site_id=site_id, batch_size=batch_size, progress=show)
    for line, reason in result.rejected[:_SHOWN_REJECTIONS]:
        typer.echo(f"line {line}: {reason}", err=True)
    if len(result.rejected) > _SHOWN_REJECTIONS:
        typer.echo(f"... and {len(result.rejected) - _SHOWN_REJECTIONS} more", err=True)
    typer.echo(
        f"accepted {result.accepted}, duplicates {result.duplicates}, "
        f"rejected {len(result.rejected)} in {result.seconds:.1f} s "
        f"({result.per_second:,.0f} messages/s)"
    )
    if result.incomplete:  # every line read is stored, but the file was not read to its end
        raise typer.Exit(1)


def rebuild_command() -> None:
    """Recreate every fact, rollup and snapshot from the stored raw messages."""
    from fleetscope.ingest.batch import rebuild

    with offline_pipeline() as pipeline, progress_report("rebuild") as report:
        total = pipeline.store.raw_frame_count()

        def show(so_far: "RebuildResult") -> None:
            report.update(
                Step(done=so_far.frames, total=total, messages=so_far.frames, unit="frames")
            )

        report.update(Step(done=0, total=total, messages=0, unit="frames"))
        result = rebuild(pipeline, progress=show)
    typer.echo(
        f"replayed {result.frames} raw frames in {result.seconds:.1f} s"
        + (f" ({result.skipped} skipped, see the log)" if result.skipped else "")
    )
