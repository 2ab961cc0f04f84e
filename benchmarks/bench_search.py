"""Benchmark the judges' search on judge questions: recall@1/3/5 and MRR per game, per kind of answer
(rule, ruling, card) and overall, against a Ctrl-F baseline, and the latency of /search.json
(p50/p99) on the bundled database and on a synthetic one N times larger.

    .venv/bin/python benchmarks/bench_search.py [--db data/rules.db] [--scale 10] [--misses tuned]
        [--questions benchmarks/judge_questions_blind.yaml]

The questions and their answers are in ``benchmarks/judge_questions.yaml`` (a third of them held
out: never looked at while tuning). Every question is searched across all games, with no filter.
The baseline is what a judge does with Ctrl-F: every word of three letters or more of the question
counted in the raw text of each rule (newest version of each rulebook), ruling and card; most
distinct words first, then most occurrences, then document order.

``--scale N`` copies the database's rules, rulings and cards N times over (each copy a game of its
own, every word of five letters or more altered in a quarter of its places, so the vocabulary grows
too), rebuilds the search index, and times the same questions there. ``--misses tuned`` prints the
tuning questions that miss the first place, with what came first (never the held-out ones unless
asked with ``--misses all``). ``--why`` counts why the questions missing the first place missed it (what came
first, in relation to the answer, and the features it beat the answer on), in counts only, so that it can be run on
the validation sets without reading their questions.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode

import yaml
from bench_pages import percentile

from rules_db.guard import read_only

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = Path(__file__).resolve().parent / "judge_questions.yaml"
CUTOFFS = (1, 3, 5)


# ---------------------------------------------------------------- questions and answers


def load_questions(conn: sqlite3.Connection, path: Path = QUESTIONS) -> tuple[list[dict], int]:
    """The questions, each with ``accepted``: the (kind, id) results that answer it, and how many were left
    out because their answers are in a document this database does not hold. A file other than the tuning
    set is held out as a whole (judge_questions_blind.yaml: written blind, never tuned on)."""
    questions = yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]
    if path != QUESTIONS:
        for question in questions:
            question.setdefault("heldout", True)
    kept = []
    for question in questions:
        question["accepted"] = set()
        for answer in question["answers"]:
            ((kind, reference),) = answer.items()
            question["accepted"] |= _resolve(conn, kind, reference)
        if question["accepted"]:
            kept.append(question)
    return kept, len(questions) - len(kept)


def _resolve(conn: sqlite3.Connection, kind: str, reference: str) -> set[tuple[str, int]]:
    from rules_db import lineage_store

    if kind == "rule":  # GAME[/RULEBOOK]/VERSION/NUMBER
        parts = reference.split("/")
        game, rulebook, version, number = parts if len(parts) == 4 else (parts[0], "core", *parts[1:])
        document = conn.execute(
            """select d.id from documents d join rulebooks b on b.id = d.rulebook_id
            where d.game_id = ? and b.slug = ? and d.version = ? and d.kind = 'rules'""",
            [game, rulebook, version],
        ).fetchone()
        if document is None:
            return set()  # a document this database does not hold
        row = conn.execute(
            "select id from rules where document_id = ? and number = ?", [document[0], number]
        ).fetchone()
        if row is None:
            raise SystemExit(f"benchmark answer rule {reference} is not in its document")
        same = {
            other[0]
            for document_id, _version, other_number, how in lineage_store.equivalents(conn, row[0])
            if how != "ancestor"
            for other in conn.execute(
                "select id from rules where document_id = ? and number = ?", [document_id, other_number]
            )
        }
        return {("rule", rule_id) for rule_id in {row[0], *same}}
    if kind == "ruling":  # DOCUMENT#POSITION, or riftboundfaq-rulings/PAGE#ANCHOR
        document, place = reference.split("#")
        if "/" in document:
            page = document.split("/", 1)[1]
            rows = conn.execute("select id from rulings where url like ?", [f"%/{page}#{place}"])
        else:
            rows = conn.execute("select id from rulings where document_id = ? and position = ?", [document, int(place)])
        return {("ruling", found[0]) for found in rows}
    if kind == "card":
        return {("card", found[0]) for found in conn.execute("select id from cards where slug = ?", [reference])}
    raise SystemExit(f"unknown kind of answer: {kind}")


# ---------------------------------------------------------------- the two searches


def ask_search(client_get, question: str, **filters) -> tuple[list[tuple[str, int]], tuple[float, float], dict]:
    """The results' (kind, id), the request's wall-clock and CPU seconds, and the JSON."""
    start, cpu = time.perf_counter(), time.process_time()
    data = client_get("/search.json?" + urlencode({"q": question, **filters}))
    elapsed = (time.perf_counter() - start, time.process_time() - cpu)
    return [(hit["kind"], hit["id"]) for hit in data["results"]], elapsed, data


class CtrlF:
    """Term counting over the raw text, the way a judge searches a PDF."""

    def __init__(self, conn: sqlite3.Connection):
        self.units = [
            (("rule", rule_id), game, (text or "").lower())
            for rule_id, game, text in conn.execute(
                """select r.id, r.game_id, coalesce(r.heading, '') || ' ' || r.raw_text from rules r
                join documents d on d.id = r.document_id where d.is_newest = 1 order by r.document_id, r.position"""
            )
        ]
        self.units += [
            (("ruling", ruling_id), game, text.lower())
            for ruling_id, game, text in conn.execute(
                """select g.id, g.game_id, g.question || ' ' || g.ruling || ' ' ||
                    coalesce((select group_concat(text, ' ') from ruling_steps where ruling_id = g.id), '') || ' ' ||
                    coalesce((select group_concat(text, ' ') from ruling_nuances where ruling_id = g.id), '')
                from rulings g order by g.position"""
            )
        ]
        self.units += [
            (("card", card_id), game, f"{name} {ability or ''}".lower())
            for card_id, game, name, ability in conn.execute(
                "select id, game_id, name, ability_raw from cards order by id"
            )
        ]

    def search(self, question: str, game: str | None = None, limit: int = 20) -> list[tuple[str, int]]:
        words = list(dict.fromkeys(word for word in re.findall(r"\w+", question.lower()) if len(word) >= 3))
        scored = []
        for order, (key, unit_game, text) in enumerate(self.units):
            if game and unit_game != game:
                continue
            counts = [text.count(word) for word in words]
            distinct = sum(1 for count in counts if count)
            if distinct:
                scored.append((-distinct, -sum(counts), order, key))
        return [key for *_rest, key in sorted(scored)[:limit]]


# ---------------------------------------------------------------- figures


def rank_of(results: list[tuple[str, int]], accepted: set) -> int | None:
    return next((position for position, key in enumerate(results, start=1) if key in accepted), None)


def figures(ranks: list[int | None]) -> dict[str, float]:
    count = len(ranks) or 1
    out = {f"@{k}": sum(1 for rank in ranks if rank and rank <= k) / count for k in CUTOFFS}
    out["MRR"] = sum(1 / rank for rank in ranks if rank) / count
    return out


def answer_kind(question: dict) -> str:
    """What answers the question: "rule", "ruling" or "card" (the kind of its first answer)."""
    ((kind, _reference),) = question["answers"][0].items()
    return kind


def print_table(title: str, questions: list[dict], rank: str = "rank", baseline: str = "baseline_rank") -> dict:
    """Recall and MRR of the search and of the baseline, per game, per kind of answer and overall."""
    print(f"\n{title}")
    print(f"  {'game / answer':<16}{'n':>4}  {'search  @1    @3    @5    MRR':<32}  {'Ctrl-F  @1    @3    @5    MRR'}")
    groups = defaultdict(list)
    for question in questions:
        groups[question["game"]].append(question)
    for question in questions:
        groups[f"answer: {answer_kind(question)}"].append(question)
    groups["overall"] = questions
    table = {}
    for game, members in groups.items():
        ours = figures([question[rank] for question in members])
        theirs = figures([question[baseline] for question in members])
        table[game] = ours
        print(
            f"  {game:<16}{len(members):>4}  "
            + "      "
            + "  ".join(f"{ours[name]:.2f}" for name in ("@1", "@3", "@5", "MRR"))
            + "          "
            + "  ".join(f"{theirs[name]:.2f}" for name in ("@1", "@3", "@5", "MRR"))
        )
    return table


# ---------------------------------------------------------------- why a question missed


class MissReasons:
    """Why the answer of a question was not first: where it was, what came first in relation to it (a rule's
    parent, child, sibling, ... in the same rulebook; another rulebook or game; a ruling or a card), and which
    re-ranking features the first result scored higher on. Counts only: never one question's entry."""

    def __init__(self, conn: sqlite3.Connection):
        self.rules = {
            rule_id: (parent_id, document_id)
            for rule_id, parent_id, document_id in conn.execute("select id, parent_id, document_id from rules")
        }
        self.defining = {
            rule_id for (rule_id,) in conn.execute("select rule_id from keywords where rule_id is not null")
        }
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.lost_on: Counter = Counter()
        self.compared = 0

    def add(self, question: dict, results: list[dict]) -> None:
        rank = question["rank"]
        if rank == 1:
            return
        self.counts["the answer's rank"][
            "2-5" if rank and rank <= 5 else "6-20" if rank else "not in the first 20"
        ] += 1
        self.counts["what answers"][answer_kind(question)] += 1
        if not results:
            self.counts["what came first"]["nothing"] += 1
            return
        first = results[0]
        self.counts["what came first"][self.relation(first, question)] += 1
        if first["kind"] == "rule":
            defines = (
                "a defining rule (keyword, glossary or defined term)"
                if first["id"] in self.defining
                else "not a defining rule"
            )
            self.counts["the first rule"][defines] += 1
        answer = next((hit for hit in results if (hit["kind"], hit["id"]) in question["accepted"]), None)
        if answer is not None:
            self.compared += 1
            for name, value in first["features"].items():
                if value > answer["features"].get(name, 0.0) + 1e-9:
                    self.lost_on[name] += 1

    def relation(self, first: dict, question: dict) -> str:
        """What the first result is to the nearest of the question's answers."""
        if first["game"] != question["game"]:
            return f"another game's {first['kind']}"
        if first["kind"] != "rule":
            return f"a {first['kind']} of the game"
        ranks = ["parent", "child", "sibling", "ancestor", "descendant", "same section", "elsewhere in the rulebook"]
        found = [self._related(first["id"], rule_id) for kind, rule_id in question["accepted"] if kind == "rule"]
        if not found:
            return f"a rule of the game (the answer is a {answer_kind(question)})"
        if all(how == "another rulebook or version" for how in found):
            return "another rulebook or version of the game"
        return min((how for how in found if how in ranks), key=ranks.index)

    def _related(self, first: int, answer: int) -> str:
        if self.rules[first][1] != self.rules[answer][1]:
            return "another rulebook or version"
        above_first, above_answer = self._ancestors(first), self._ancestors(answer)
        if above_answer[:1] == [first] or above_first[:1] == [answer]:
            return "parent" if above_answer[:1] == [first] else "child"
        if first in above_answer or answer in above_first:
            return "ancestor" if first in above_answer else "descendant"
        if above_first[:1] == above_answer[:1] and above_first:
            return "sibling"
        return "same section" if set(above_first) & set(above_answer) else "elsewhere in the rulebook"

    def _ancestors(self, rule_id: int) -> list[int]:
        out = []
        while (parent := self.rules[rule_id][0]) is not None:
            out.append(parent)
            rule_id = parent
        return out

    def print(self, title: str) -> None:
        print(f"\nWhy the first place was missed ({title}; counts of questions):")
        for heading, counts in self.counts.items():
            print(f"  {heading}: " + ", ".join(f"{label} {count}" for label, count in counts.most_common()))
        print(
            f"  the first result scored higher than the answer (when the answer was in the first 20, {self.compared}"
            " questions) on: " + ", ".join(f"{name} {count}" for name, count in self.lost_on.most_common())
        )


# ---------------------------------------------------------------- a synthetic corpus N times larger


def scaled_copy(source: Path, factor: int, target: Path) -> None:
    """``source`` with its rules, rulings and cards copied ``factor - 1`` more times (each copy a game of its
    own, words altered), and the search index rebuilt over all of them."""
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    conn.create_function("altered", 2, _alter, deterministic=True)
    base = {
        table: conn.execute(f"select max(id) from {table}").fetchone()[0] or 0
        for table in ("rules", "rulings", "cards", "keywords", "ruling_steps", "ruling_nuances")
    }
    for copy in range(1, factor):
        _copy_rows(conn, copy, base)
    model = _vector_model(conn)
    for table in ("search_fts", "search_documents", "search_terms", "search_names"):
        conn.execute(f"drop table {table}")
    conn.execute("drop table if exists search_vectors")
    conn.execute("drop table if exists search_vector_model")
    conn.commit()
    import sqlite_utils

    from rules_db import search_index

    db = sqlite_utils.Database(conn)
    search_index.build(db)
    if model:
        _random_vectors(conn, *model)
    conn.commit()
    conn.close()


def _vector_model(conn: sqlite3.Connection) -> tuple[str, int] | None:
    try:
        return conn.execute("select name, dimensions from search_vector_model").fetchone()
    except sqlite3.OperationalError:
        return None


def _random_vectors(conn: sqlite3.Connection, name: str, dimensions: int) -> None:
    """Vectors for every row of the scaled index under the source's encoder: random unit vectors, not embeddings
    (embedding ten times the corpus would cost an hour), so the dense stage costs what it would at that size: the
    question embedded by the real model, every row's cosine, the nearest rows fused."""
    import numpy as np

    from rules_db.search.index_format import VECTOR_DTYPE, VECTOR_TABLES

    ids = [row_id for (row_id,) in conn.execute("select id from search_documents order by id")]
    vectors = np.random.default_rng(0).standard_normal((len(ids), dimensions)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    conn.executescript(VECTOR_TABLES)
    conn.executemany(
        "insert into search_vectors values (?, ?)",
        [(row_id, vector.astype(VECTOR_DTYPE).tobytes()) for row_id, vector in zip(ids, vectors)],
    )
    conn.execute("insert into search_vector_model values (?, ?, ?, ?)", [name, dimensions, len(ids), len(ids)])


def _alter(text: str | None, copy: int) -> str | None:
    """Every word of five letters or more changed in about a quarter of its places, the same way each time."""
    if text is None:
        return None

    def change(match: re.Match) -> str:
        word = match.group()
        if len(word) >= 5 and zlib.crc32(f"{word}{copy}{match.start() % 7}".encode()) % 4 == 0:
            return f"{word}{'xyzqvw'[copy % 6]}{copy}"
        return word

    return re.sub(r"[A-Za-z]+", change, text)


def _copy_rows(conn: sqlite3.Connection, copy: int, base: dict) -> None:
    """One more copy of the original rows (ids up to ``base``), ids shifted by ``copy`` times ``base``."""
    suffix = f"-x{copy}"
    offset = {table: value * copy for table, value in base.items()}
    conn.execute(
        f"insert into games (id, name) select id || '{suffix}', name || ' {copy}' from games where id not like '%-x%'"
    )
    conn.execute(
        f"""insert into documents (id, game_id, title, version, kind, source_file, original_name, sha256, lines,
            nonblank_lines, coverage, ingested_share, is_newest, written_against)
        select id || '{suffix}', game_id || '{suffix}', title, version, kind, source_file, original_name, sha256, lines,
            nonblank_lines, coverage, ingested_share, is_newest, written_against
        from documents where id not like '%-x%'"""
    )
    conn.execute(
        f"""insert into rules (id, document_id, game_id, number, parent_number, parent_id, depth, position, section,
            heading, text, raw_text, inferred, source_lines)
        select id + {offset["rules"]}, document_id || '{suffix}', game_id || '{suffix}', number, parent_number,
            parent_id + {offset["rules"]}, depth, position, section, altered(heading, {copy}), altered(text, {copy}),
            altered(raw_text, {copy}), inferred, source_lines
        from rules where id <= {base["rules"]}"""
    )
    conn.execute(
        f"""insert into keywords (id, game_id, document_id, term, kind, rule_id, defining_number, aliases)
        select id + {offset["keywords"]}, game_id || '{suffix}', document_id || '{suffix}', altered(term, {copy}), kind,
            rule_id + {offset["rules"]}, defining_number, aliases from keywords where id <= {base["keywords"]}"""
    )
    conn.execute(
        f"""insert into rulings (id, game_id, document_id, position, question, ruling, first_line)
        select id + {offset["rulings"]}, game_id || '{suffix}', document_id || '{suffix}', position,
            altered(question, {copy}), altered(ruling, {copy}), first_line from rulings where id <= {base["rulings"]}"""
    )
    conn.execute(
        f"""insert into ruling_steps (id, ruling_id, branch, position, text)
        select id + {offset["ruling_steps"]}, ruling_id + {offset["rulings"]}, branch, position, altered(text, {copy})
        from ruling_steps where id <= {base["ruling_steps"]}"""
    )
    conn.execute(
        f"""insert into ruling_nuances (id, ruling_id, position, text)
        select id + {offset["ruling_nuances"]}, ruling_id + {offset["rulings"]}, position, altered(text, {copy})
        from ruling_nuances where id <= {base["ruling_nuances"]}"""
    )
    conn.execute(
        f"""insert into cards (id, game_id, name, slug, card_type, domain, energy, power, might, ability_raw,
            ability_text, in_card_list, document_id)
        select id + {offset["cards"]}, game_id || '{suffix}', altered(name, {copy}), slug || '{suffix}', card_type,
            domain, energy, power, might, altered(ability_raw, {copy}), altered(ability_text, {copy}), in_card_list,
            document_id || '{suffix}' from cards where id <= {base["cards"]}"""
    )
    conn.execute(
        f"""insert into card_aliases (card_id, alias, how) select card_id + {offset["cards"]}, altered(alias, {copy}), how
        from card_aliases where card_id <= {base["cards"]}"""
    )
    conn.execute(
        f"""insert into card_mentions (card_id, ruling_id, surface, how)
        select card_id + {offset["cards"]}, ruling_id + {offset["rulings"]}, surface, how from card_mentions
        where card_id <= {base["cards"]} and ruling_id <= {base["rulings"]}"""
    )


# ---------------------------------------------------------------- running it


def datasette_client(db_path: Path):
    """A function that GETs a path from Datasette (the judges' plugin loaded) and returns its JSON."""
    from datasette.app import Datasette

    skip_trio_probe()
    datasette = Datasette([str(db_path)], immutables=[])
    loop = asyncio.new_event_loop()
    loop.run_until_complete(datasette.invoke_startup())

    def get(path: str) -> dict:
        response = loop.run_until_complete(datasette.client.get(path))
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}: {response.text[:300]}")
        return response.json()

    return get


def skip_trio_probe() -> None:
    """Make httpx's per-request ``import sniffio`` (its test for trio) fail at once when sniffio is not installed.
    A failed import is not remembered: every request searched the whole ``sys.path`` again (a stat per entry,
    0.2 ms of CPU and up to a millisecond of wall clock on a busy machine), time the figures counted as the
    server's. ``None`` in ``sys.modules`` is Python's own mark of a module that is absent."""
    if importlib.util.find_spec("sniffio") is None:
        sys.modules.setdefault("sniffio", None)


def raw_fts_seconds(conn: sqlite3.Connection, question: str) -> float:
    """Time of the plain FTS5 query a search box would run: every word OR-ed, BM25 order, first 20."""
    words = re.findall(r"[^\W_]+", question.lower())
    if not words:
        return 0.0
    match = " OR ".join(f'"{word}"' for word in dict.fromkeys(words))
    start = time.perf_counter()
    conn.execute(
        """select d.id from search_fts join search_documents d on d.id = search_fts.rowid
        where search_fts match ? and d.current = 1 order by rank limit 20""",
        [match],
    ).fetchall()
    return time.perf_counter() - start


def latency(db_path: Path, questions: list[dict], passes: int) -> dict[str, list[float]]:
    """Seconds per /search.json request (wall clock and CPU) and per raw FTS5 query, every question
    asked ``passes`` times."""
    from rules_db.search import semantic

    semantic._QUERY_VECTORS_KEPT = 0  # every pass embeds the question again: no figure flattered by the cache
    get = datasette_client(db_path)
    conn = read_only(db_path)
    times: dict[str, list[float]] = {"wall": [], "cpu": [], "raw": []}
    for question in questions[:3]:
        get("/search.json?" + urlencode({"q": question["q"]}))  # warm the caches
    for _ in range(passes):
        for question in questions:
            wall, cpu = ask_search(get, question["q"])[1]
            times["wall"].append(wall)
            times["cpu"].append(cpu)
            times["raw"].append(raw_fts_seconds(conn, question["q"]))
    conn.close()
    return times


def print_latency(title: str, times: dict[str, list[float]]) -> None:
    def p(name: str, share: float) -> str:
        return f"{percentile(times[name], share) * 1000:.1f}"

    print(
        f"\n{title}, {len(times['wall'])} requests, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:\n"
        f"  /search.json       p50 {p('wall', 0.5):>6} ms   p99 {p('wall', 0.99):>6} ms   (CPU p50 {p('cpu', 0.5)} ms,"
        f" p99 {p('cpu', 0.99)} ms)\n"
        f"  raw FTS5 OR query  p50 {p('raw', 0.5):>6} ms   p99 {p('raw', 0.99):>6} ms   (every word OR-ed, BM25, first 20)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=ROOT / "data" / "rules.db")
    parser.add_argument("--scale", type=int, default=10, help="size of the synthetic corpus (0: none)")
    parser.add_argument(
        "--passes", type=int, default=3, help="times each question is asked for the latency (0: no latency)"
    )
    parser.add_argument("--misses", choices=["none", "tuned", "all"], default="none")
    parser.add_argument(
        "--why", action="store_true", help="count why questions missed the first place (what came first, and why)"
    )
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="the judge questions (YAML) to ask")
    options = parser.parse_args()
    if not options.db.exists():
        from rules_db.build import build

        print(f"building {options.db} ...")
        build(options.db)
    conn = read_only(options.db)
    questions, skipped = load_questions(conn, options.questions.resolve())
    get = datasette_client(options.db)
    baseline = CtrlF(conn)
    for question in questions:
        results, _seconds, data = ask_search(get, question["q"])
        question["rank"] = rank_of(results, question["accepted"])
        question["filtered_rank"] = rank_of(
            ask_search(get, question["q"], game=question["game"])[0], question["accepted"]
        )
        question["baseline_rank"] = rank_of(baseline.search(question["q"]), question["accepted"])
        question["filtered_baseline_rank"] = rank_of(
            baseline.search(question["q"], question["game"]), question["accepted"]
        )
        question["first"] = data["results"][0] if data["results"] else None
        question["results"] = data["results"]
    tuned = [question for question in questions if not question.get("heldout")]
    held_out = [question for question in questions if question.get("heldout")]
    print(
        f"{len(questions)} judge questions ({len(tuned)} tuned on, {len(held_out)} held out), no game filter;"
        f" {skipped} left out: their documents are not in this database"
    )
    print_table("Tuning questions", tuned)
    print_table("Held-out questions (never tuned on)", held_out)
    print_table("All questions", questions)
    print_table(
        "All questions, the judge having chosen the question's game (game=...; Ctrl-F in that game's texts)",
        questions,
        "filtered_rank",
        "filtered_baseline_rank",
    )
    if options.why:
        for title, members in (("tuning questions", tuned), ("held-out questions", held_out)):
            reasons = MissReasons(conn)
            for question in members:
                reasons.add(question, question["results"])
            if members:
                reasons.print(title)
    if options.misses != "none":
        shown = tuned if options.misses == "tuned" else questions
        print("\nMisses at @1:")
        for question in shown:
            if question["rank"] != 1:
                first = question["first"] or {}
                print(
                    f"  [{question['rank']}] {question['q']!r} -> {first.get('kind')} {first.get('game')} "
                    f"{first.get('number') or ''} {first.get('title', '')[:60]!r}"
                )
    if not options.passes:
        return
    print_latency(
        f"Bundled database ({options.db.stat().st_size / 1e6:.1f} MB)", latency(options.db, questions, options.passes)
    )
    if options.scale > 1:
        with tempfile.TemporaryDirectory() as folder:
            scaled = Path(folder) / f"rules-x{options.scale}.db"
            start = time.perf_counter()
            scaled_copy(options.db, options.scale, scaled)
            rows = sqlite3.connect(scaled).execute("select count(*) from search_documents").fetchone()[0]
            print(
                f"\nsynthetic corpus x{options.scale}: {rows} rows indexed, built in {time.perf_counter() - start:.1f} s"
            )
            print_latency(
                f"x{options.scale} database ({scaled.stat().st_size / 1e6:.1f} MB)",
                latency(scaled, questions, options.passes),
            )


if __name__ == "__main__":
    main()
