"""The `rules-db` command line: it mirrors the Python API (rules_db.build, ...)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ingest.errors import IngestError
from rules_db.build import BuildFailed, build, specs_for

DEFAULT_DB = Path("data/rules.db")


@click.group()
@click.version_option(package_name="rules-db")
def cli() -> None:
    """A judge's ruling assistant: rules, rulings and cards in one SQLite database."""


@cli.command("build")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB,
              show_default=True, help="Database to write (replaced atomically at the end).")
@click.option("--keep-going", is_flag=True,
              help="Write the database even if some documents fail, without them.")
@click.argument("documents", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
def build_command(db_path: Path, keep_going: bool, documents: tuple[Path, ...]) -> None:
    """Ingest the bundled documents, or DOCUMENTS, into the database."""
    try:
        specs = specs_for(list(documents))
    except IngestError as error:
        raise click.ClickException(str(error)) from None
    try:
        result = build(db_path, specs, keep_going=keep_going, echo=click.echo, progress=_progress)
    except BuildFailed as failure:
        for report in failure.result.reports:
            click.echo(report.line(), err=bool(report.error))
        raise click.ClickException(f"{len(failure.result.failed)} document(s) failed; {db_path} was left as it was "
                                   "(use --keep-going to build without them)") from None
    timings = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in result.timings.items())
    click.echo(f"Wrote {db_path} ({timings})")
    if result.failed:
        sys.exit(1)


def _progress(specs):
    with click.progressbar(specs, label="Ingesting", file=sys.stderr,
                           item_show_func=lambda spec: spec.slug if spec else "") as bar:
        yield from bar
