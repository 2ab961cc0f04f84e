"""The `rules-db` command line: it mirrors the Python API (rules_db.build, ...)."""

from __future__ import annotations

import atexit
import gc
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ingest.errors import IngestError

DEFAULT_DB = Path("data/rules.db")


def _db_option(help: str | None = None, exists: bool = False):
    """The ``--db`` option of a command (the database file, ``data/rules.db`` unless given)."""
    path = click.Path(exists=exists, dir_okay=False, path_type=Path)
    return click.option("--db", "db_path", type=path, default=DEFAULT_DB, show_default=True, help=help)


@click.group()
@click.version_option(package_name="rules-db")
def cli() -> None:
    """A judge's ruling assistant: rules, rulings and cards in one SQLite database."""


@cli.command("build")
@_db_option("Database to write (replaced atomically at the end).")
@click.option("--keep-going", is_flag=True, help="Write the database even if some documents fail, without them.")
@click.argument("documents", nargs=-1, type=click.Path(path_type=Path))
def build_command(db_path: Path, keep_going: bool, documents: tuple[Path, ...]) -> None:
    """Ingest the bundled documents, or DOCUMENTS (files and folders, in any order), into the database."""
    heap_left_to_the_system_at_exit()
    from rules_db.build import BuildFailed, build, specs_for  # the build's imports are heavy: only its commands pay

    try:
        specs = specs_for(list(documents))
        with _operational_failures(f"cannot write {db_path}", "the previous database was kept"):
            result = build(db_path, specs, keep_going=keep_going, echo=click.echo, progress=_progress)
    except IngestError as error:
        raise click.ClickException(str(error)) from None
    except BuildFailed as failure:
        for report in failure.result.reports:
            click.echo(report.line(), err=bool(report.error))
        raise click.ClickException(
            f"{len(failure.result.failed)} document(s) failed; {db_path} was left as it was "
            "(use --keep-going to build without them)"
        ) from None
    timings = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in result.timings.items())
    click.echo(f"Wrote {db_path} ({timings})")
    if result.failed:
        sys.exit(1)


@contextmanager
def _operational_failures(what: str, consequence: str = "") -> Iterator[None]:
    """A failure of the machine rather than of a document (a full disk, a read-only folder, a file where a folder
    should be) as one line naming the path and the reason, not a traceback."""
    try:
        yield
    except (OSError, sqlite3.OperationalError) as error:
        if isinstance(error, FileExistsError | NotADirectoryError):
            reason = "a file stands where a folder should be"
        else:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        raise click.ClickException(f"{what}: {reason}{where}" + (f"; {consequence}" if consequence else "")) from None


def heap_left_to_the_system_at_exit() -> None:
    """The `build` command's process leaves its heap to the operating system when it exits (``gc.freeze`` at
    exit): the interpreter's last collection would walk and free the modules, caches and replayed games of the
    build object by object after the database is written (0.11-0.17 CPU-s). Only this command's process (and
    ``benchmarks/bench_build.py``'s, which stands for it): a process that calls `rules_db.build.build` as a
    library (a test) goes on collecting to its end."""
    atexit.register(gc.freeze)


def _progress(specs):
    with click.progressbar(
        specs, label="Ingesting", file=sys.stderr, item_show_func=lambda spec: spec.slug if spec else ""
    ) as bar:
        yield from bar


@cli.command("serve")
@_db_option()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: 0.0.0.0 serves the local network too, so a phone on the same Wi-Fi can open it.",
)
@click.option("--port", default=8001, show_default=True, type=int)
@click.option(
    "--ssl-certfile",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Serve over HTTPS with this certificate (with --ssl-keyfile): phones keep pages offline only over HTTPS.",
)
@click.option("--ssl-keyfile", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Server processes (default: one per core), so one slow page never holds up the others.",
)
def serve_command(
    db_path: Path, host: str, port: int, ssl_certfile: Path | None, ssl_keyfile: Path | None, workers: int | None
) -> None:
    """Build the database if it is missing or older than its sources, then serve it in Datasette."""
    from rules_db.build import BuildFailed, build, specs_for
    from rules_db.serve import qr_code, reachable_from_other_devices, serve, site_urls
    from rules_db.sources import stale_reason

    if (ssl_certfile is None) != (ssl_keyfile is None):
        raise click.UsageError("--ssl-certfile and --ssl-keyfile go together")
    reason = stale_reason(db_path)
    if reason:
        click.echo(f"Building {db_path}: {reason}")
        try:
            with _operational_failures(f"cannot write {db_path}", "the previous database was kept"):
                build(db_path, specs_for([]), echo=click.echo, progress=_progress)
        except BuildFailed as failure:
            raise click.ClickException(str(failure)) from None
    urls = site_urls(host, port, https=ssl_certfile is not None)
    click.echo(f"Serving {db_path} at {urls[0]}")
    if reachable_from_other_devices(host):
        click.echo(f"On a phone on the same network, open {urls[0]} or scan:")
        click.echo(qr_code(urls[0]))
        if len(urls) > 1:
            click.echo(f"On this machine: {urls[-1]}")
    certificate = (ssl_certfile, ssl_keyfile) if ssl_certfile and ssl_keyfile else None
    with _operational_failures(f"cannot serve {db_path}"):
        serve(db_path, host=host, port=port, certificate=certificate, workers=workers)


@cli.command("diff")
@click.argument("game")
@click.argument("old")
@click.argument("new")
@_db_option(exists=True)
@click.option(
    "--details",
    "details_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write every row (.json or .csv); default: GAME-OLD-NEW.csv beside the database.",
)
@click.option(
    "--rulebook", default=None, help="Which of the game's rulebooks (e.g. tournament); default: its Core Rules."
)
def diff_command(game: str, old: str, new: str, db_path: Path, details_path: Path | None, rulebook: str | None) -> None:
    """Compare two versions of a game's rulebook: counts per kind, the sections that changed most.
    Any two versions compare, also ones with others between them (OLD and NEW are versions, labels or
    dates: 2025-12-01, 1.4)."""
    import sqlite_utils

    from rules_db.lineage_report import diff_command_output

    details_path = details_path or db_path.with_name(f"{game}-{old}-{new}.csv")
    try:
        click.echo(diff_command_output(sqlite_utils.Database(db_path), game, old, new, details_path, rulebook=rulebook))
    except LookupError as error:
        raise click.ClickException(str(error)) from None


@cli.command("cards")
@_db_option()
@click.option("--coverage", is_flag=True, help="How many cards of each set the card reader reads fully.")
@click.option("--unread", "show_unread", is_flag=True, help="Each card not read, with the words not read.")
@click.option("--oracle", is_flag=True, help="The hand-written cards (scenarios/cards.yaml) against their readings.")
def cards_command(db_path: Path, coverage: bool, show_unread: bool, oracle: bool) -> None:
    """The cards the engine can use: read from their text at build time (card_readings)."""
    from rules_db import card_readings, guard

    with _operational_failures(f"cannot read {db_path}", "build it first (rules-db build)"):
        connection = guard.read_only(db_path)
        if show_unread:
            for card in card_readings.unread_cards(connection):
                click.echo(f"{card['set']}\t{card['name']}\t" + " | ".join(card["unread"]))
        if oracle:
            for line in card_readings.oracle_lines(connection):
                click.echo(line)
        if coverage or not (show_unread or oracle):
            for line in card_readings.coverage_lines(connection):
                click.echo(line)


@cli.command("replay")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--all", "replay_all", is_flag=True, help="Replay the whole scenario library and print a table.")
@_db_option(
    "Database whose cards read from their text the scenarios may name, and whose rule lineage translates "
    "citations for a scenario naming another rules version."
)
@click.option("--max-steps", type=int, default=1_000_000, show_default=True, help="Engine steps a replay may take.")
@click.option("--seconds", type=float, default=60.0, show_default=True, help="Seconds a replay may run.")
def replay_command(files: tuple[Path, ...], replay_all: bool, db_path: Path, max_steps: int, seconds: float) -> None:
    """Replay scenario FILES, each with its variants, step by step with the rules cited; exits non-zero when an
    outcome differs."""
    from rules_db.card_readings import load_read_cards
    from scenarios import library_paths
    from scenarios.kernel import Budget, BudgetExceeded
    from scenarios.replay import render_tree, replay_file
    from scenarios.schema import ScenarioError

    if not files and not replay_all:
        raise click.UsageError("give a scenario FILE or --all")
    load_read_cards(db_path)  # the cards a judge's dispute names, as the replay pages know them
    try:
        if replay_all:
            replays = [replay_file(path, Budget(max_steps=max_steps, seconds=seconds)) for path in library_paths()]
        else:
            replays = [replay for path in files for replay in _with_variants(path, max_steps, seconds)]
    except (ScenarioError, BudgetExceeded) as error:
        raise click.ClickException(str(error)) from None
    if replay_all:
        click.echo(_replay_table(replays))
    else:
        click.echo("\n\n".join(render_tree(replay, cite=_citations(replay, db_path)) for replay in replays))
    if any(replay.verdict != "match" for replay in replays):
        sys.exit(1)


def _with_variants(path: Path, max_steps: int, seconds: float) -> list:
    """A file's replay, then each of its variants' (its what-ifs), each within its own budget."""
    from scenarios import schema
    from scenarios.kernel import Budget
    from scenarios.replay import replay_file, replay_variant

    scenario, _ = schema.load(path)
    return [replay_file(path, Budget(max_steps=max_steps, seconds=seconds))] + [
        replay_variant(path, variant.id, Budget(max_steps=max_steps, seconds=seconds)) for variant in scenario.variants
    ]


def _citations(replay, db_path: Path):
    """The step citations in the version the scenario names (translated through the stored lineage). In the
    engine's own version only its numbers cited in another version need the database (`443.1.a@2025-12-01`):
    without it they are printed as they are."""
    if replay.rules_version == replay.cited_version and not db_path.exists():
        return None
    import sqlite_utils

    from rules_db.replays import CitationTranslator

    if not db_path.exists():
        raise click.ClickException(
            f"{replay.file} cites Core Rules {replay.rules_version}: translating the engine's "
            f"{replay.cited_version} numbers needs the database ({db_path} is missing: run `rules-db build`)"
        )
    try:
        return CitationTranslator(
            sqlite_utils.Database(db_path), "riftbound", replay.cited_version, replay.rules_version
        )
    except LookupError as error:
        raise click.ClickException(f"{replay.file}: {error}") from None


def _replay_table(replays) -> str:
    rows = [("ruling", "scenario", "judged under", "verdict", "steps", "time")]
    rows += [
        (
            str(replay.ruling_position or "-"),
            replay.scenario_id,
            replay.rules_version,
            replay.verdict,
            str(replay.step_count),
            f"{replay.seconds * 1000:.1f} ms",
        )
        for replay in replays
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    matched = sum(replay.verdict == "match" for replay in replays)
    return "\n".join([*lines, f"{matched} of {len(replays)} scenarios match their ruling"])
