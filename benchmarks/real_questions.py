"""Build benchmarks/judge_questions_real.yaml: judges' real questions, from documents that cite the rules answering them.

    .venv/bin/python benchmarks/real_questions.py [--faq ../shared/corpus/riftbound-vendetta-faq-2026-08-14.md]

Two sources, both written by judges for players, never by this project:

- the riftboundfaq pages (``corpus/riftboundfaq-rulings/**/*.mdx``): each ``## question [#anchor]`` section cites the
  Core Rules it rests on (``<Rule number="..."/>``), reviewed against Core Rules v1.4 (2026-06-18);
- an official FAQ in Markdown (``**question**`` then the answer, then ``Relevant Rules: 359.3.f.1., ...``), against the
  newest Core Rules.

Each question is rewritten the way a judge types it on a phone (lower case, no punctuation, no apostrophes), by rule,
not by hand; its answers are the rules it cites (those the version holds). A riftboundfaq question is itself a ruling
of the database: that ruling is excluded from its results (``exclude``), so the question is asked as one the
documents do not hold. The split into tuning (40 %) and validation questions is by a digest of the question, decided
here, before any result was looked at; nothing is tuned on the validation questions.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import zlib
from pathlib import Path

import yaml

from rules_db import guard

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "judge_questions_real.yaml"
VERSION = "2026-06-18"  # Core Rules v1.4, the version both sources cite
TUNING_SHARE = 4  # in 10

_SECTION = re.compile(r"^## (?P<question>.+?)\s*\[#(?P<anchor>[\w-]+)\]\s*$", re.MULTILINE)
_RULE_TAG = re.compile(r'<Rule number="(?P<number>[0-9A-Za-z.]+)"')
_BOLD_QUESTION = re.compile(r"^\*\*(?P<question>[^*]+\?)\*\*\s*$", re.MULTILINE)
_RELEVANT = re.compile(r"^Relevant Rules?:\s*(?P<numbers>.+)$", re.MULTILINE)
_CARD_TAG = re.compile(r'<Card name="(?P<name>[^"]+)"\s*/>')


def phone(question: str) -> str:
    """The question as typed on a phone: lower case, words only."""
    text = _CARD_TAG.sub(lambda match: match.group("name"), question)
    text = text.replace("’", "").replace("'", "").lower()
    return " ".join(re.findall(r"[^\W_]+", text))


def rule_numbers(conn: sqlite3.Connection) -> set[str]:
    return {
        number
        for (number,) in conn.execute(
            """select r.number from rules r join documents d on d.id = r.document_id
            join rulebooks b on b.id = d.rulebook_id where d.game_id = 'riftbound' and b.slug = 'core' and d.version = ?""",
            [VERSION],
        )
    }


def faq_pages(known: set[str]) -> list[dict]:
    out = []
    for path in sorted((ROOT / "corpus" / "riftboundfaq-rulings").rglob("*.mdx")):
        text = path.read_text(encoding="utf-8")
        sections = list(_SECTION.finditer(text))
        for position, section in enumerate(sections):
            end = sections[position + 1].start() if position + 1 < len(sections) else len(text)
            body = text[section.end() : end]
            numbers = [n for n in dict.fromkeys(m.group("number").rstrip(".") for m in _RULE_TAG.finditer(body))]
            cited = [n for n in numbers if n in known]
            if not cited:
                continue
            page = path.relative_to(ROOT / "corpus" / "riftboundfaq-rulings").with_suffix("").as_posix()
            out.append(
                {
                    "q": phone(section.group("question")),
                    "game": "riftbound",
                    "source": f"riftboundfaq-rulings/{page}#{section.group('anchor')}",
                    "answers": [{"rule": f"riftbound/{VERSION}/{n}"} for n in cited],
                    "exclude": [{"ruling": f"riftboundfaq-rulings/{page}#{section.group('anchor')}"}],
                }
            )
    return out


def faq_markdown(path: Path, known: set[str]) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    questions = list(_BOLD_QUESTION.finditer(text))
    out = []
    for position, match in enumerate(questions):
        end = questions[position + 1].start() if position + 1 < len(questions) else len(text)
        relevant = _RELEVANT.search(text, match.end(), end)
        if relevant is None:
            continue
        numbers = [n.strip().rstrip(".") for n in relevant.group("numbers").split(",")]
        cited = [n for n in dict.fromkeys(numbers) if n in known]
        if cited:
            out.append(
                {
                    "q": phone(match.group("question")),
                    "game": "riftbound",
                    "source": f"{path.name}:{text.count(chr(10), 0, match.start()) + 1}",
                    "answers": [{"rule": f"riftbound/{VERSION}/{n}"} for n in cited],
                }
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=ROOT / "data" / "rules.db")
    parser.add_argument(
        "--faq", type=Path, action="append", default=[], help="an official FAQ in Markdown with Relevant Rules lines"
    )
    options = parser.parse_args()
    conn = guard.read_only(options.db)
    known = rule_numbers(conn)
    questions = faq_pages(known)
    for path in options.faq:
        questions += faq_markdown(path, known)
    seen: set[str] = set()
    kept = []
    for question in questions:
        if question["q"] in seen:
            continue
        seen.add(question["q"])
        question["heldout"] = zlib.crc32(question["q"].encode()) % 10 >= TUNING_SHARE
        kept.append(question)
    header = "".join(f"# {line}\n".replace("# \n", "#\n") for line in (__doc__ or "").strip().splitlines())
    OUT.write_text(
        header + "\n" + yaml.safe_dump({"questions": kept}, sort_keys=False, allow_unicode=True, width=120),
        encoding="utf-8",
    )
    tuning = sum(1 for question in kept if not question["heldout"])
    print(f"{OUT.name}: {len(kept)} questions ({tuning} tuning, {len(kept) - tuning} validation)")


if __name__ == "__main__":
    main()
