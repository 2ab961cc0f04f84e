"""Synthetic Riftbound-style corpora for the scale benchmark (test data only: never part of the bundled build).

A rulebook in two versions and a rulings file, in the formats of the real ones
(``corpus/riftbound-core-rules-2025-12-01.txt``: ``NUMBER. text`` with a blank line
after each line; ``corpus/riftbound-qa-rulings.txt``: question, ``Ruling:``,
``Sequence:`` and ``Nuances:`` lists), ``scale`` times the size of the bundled
ones: 900 rules per version and 50 rulings at 1x, 90,000 rules per version and
5,000 rulings at 100x.

Texts are random words drawn with the word frequencies of the real Core Rules, so
that matching, tagging and search see a realistic vocabulary; rules cite each other
("See rule 318.2."), glossary keywords are mentioned in rules and rulings, rulings
cite rules of the newer version and name cards of the bundled card list. The newer
version is the older one updated the way real updates are: a section inserted in
every chapter (so every later rule is renumbered), rules reworded, removed, added,
split, and moved to another chapter. Everything is drawn from one seeded generator:
the same scale gives the same files.

    .venv/bin/python benchmarks/synthetic_corpus.py OUT_FOLDER --scale 10
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
RULES_PER_VERSION = 900  # at 1x, about the bundled Core Rules
RULINGS = 50  # at 1x, the bundled Q&A rulings
CHAPTERS = range(1, 9)  # 100..800; the keyword glossary is chapter 9
TITLE = "Riftbound Core Rules"
OLD_DATE, NEW_DATE = "2031-01-15", "2031-09-01"
KEYWORDS = [
    *("Accelerate", "Action", "Assault", "Deathknell", "Deflect", "Ganking", "Hidden", "Legion", "Reaction"),
    *("Shield", "Tank", "Vision", "Temporary", "Equip", "Quick-Draw", "Repeat", "Weaponmaster", "Ambush"),
    *("Backline", "Level", "Hunt", "Mighty", "Buff", "Stun", "Recall", "Channel"),
]


@dataclass(eq=False)
class Rule:
    """A rule of the outline; its number is given by its place when a version is written."""

    parts: list  # words, and Rule objects where the text cites another rule
    heading: bool = False
    children: list[Rule] = field(default_factory=list)


class _Words:
    def __init__(self, rng: random.Random):
        counts = Counter(re.findall(r"[a-z]+", (CORPUS / "riftbound-core-rules-2025-12-01.txt").read_text().lower()))
        self.rng = rng
        self.words, self.weights = zip(*[(word, count) for word, count in counts.items() if count > 1])

    def sentence(self, low: int = 8, high: int = 32) -> list[str]:
        words = self.rng.choices(self.words, self.weights, k=self.rng.randint(low, high))
        if self.rng.random() < 0.3:
            words.insert(self.rng.randrange(len(words)), self.rng.choice(KEYWORDS))
        return words

    def title(self) -> list[str]:
        """Two or three drawn words: a one-word title whose next rule happens to open with the same word would
        define a term (``ingest.riftbound_terms``), and the sections that grow with the scale would make "The"
        or "Be" terms, mentioned in most rules."""
        return [word.capitalize() for word in self.rng.choices(self.words, self.weights, k=self.rng.randint(2, 3))]


def rulebook(scale: float, rng: random.Random) -> list[Rule]:
    """The older version: chapters of titled sections, each an outline of sentences, then the keyword glossary."""
    words = _Words(rng)
    per_chapter = max(1, int(RULES_PER_VERSION * scale) // (len(CHAPTERS) + 1))
    sections = min(90, max(3, int(per_chapter**0.5)))
    chapters = [
        Rule(words.title(), True, [_section(words.title(), per_chapter // sections, words) for _ in range(sections)])
        for _ in CHAPTERS
    ]
    # The glossary defines the game's keywords, as many at every scale: a longer rulebook does not give a game more
    # keywords (extra sections titled with drawn words made "Be" or "Card" keywords at 30x, mentioned in most rules).
    glossary = [_section([keyword], per_chapter // len(KEYWORDS), words) for keyword in KEYWORDS]
    chapters.append(Rule(["Keyword", "Glossary"], True, glossary))
    everything = [rule for chapter in chapters for rule in walk(chapter)]
    for rule in rng.sample(everything, len(everything) // 12):  # cross-references
        if not rule.heading:
            rule.parts += ["See", "rule", rng.choice(everything), "for", "more", "information."]
    return chapters


def _section(title: list[str], size: int, words: _Words) -> Rule:
    """A titled section of about ``size`` rules, itself included."""
    section = Rule(title, heading=True)
    _grow(section, size - 1, words)
    return section


def _grow(rule: Rule, budget: int, words: _Words) -> None:
    """Give ``rule`` about ``budget`` descendants, at most 6 children per rule (numbers stay short)."""
    count = min(6, budget)
    for index in range(count):
        child = Rule(words.sentence())
        rule.children.append(child)
        share = (budget - count) // count + (index < (budget - count) % count)
        if share:
            _grow(child, share, words)


def walk(rule: Rule):
    yield rule
    for child in rule.children:
        yield from walk(child)


def updated(chapters: list[Rule], rng: random.Random) -> list[Rule]:
    """The next version: a copy with a new section opening every chapter (renumbering the rest), 8% of the
    sentences reworded, 2% removed, 2% added, 0.5% split in two and 0.5% moved to another chapter."""
    words = _Words(rng)
    copies: dict[int, Rule] = {}

    def copy(rule: Rule) -> Rule:
        copies[id(rule)] = Rule(list(rule.parts), rule.heading, [copy(child) for child in rule.children])
        return copies[id(rule)]

    new = [copy(chapter) for chapter in chapters]
    for rule in (rule for chapter in new for rule in walk(chapter)):  # citations follow the copy
        rule.parts = [copies.get(id(part), part) if isinstance(part, Rule) else part for part in rule.parts]
    for chapter in new[:-1]:
        chapter.children.insert(0, _section(words.title(), 6, words))
    parents = {id(child): rule for chapter in new for rule in walk(chapter) for child in rule.children}
    sentences = [rule for chapter in new[:-1] for rule in walk(chapter) if not rule.heading and not rule.children]
    rng.shuffle(sentences)
    total = len(sentences)
    for rule in sentences[: total * 8 // 100]:
        _reword(rule, words)
    for rule in sentences[total * 8 // 100 : total * 10 // 100]:
        parents[id(rule)].children.remove(rule)
    for rule in sentences[total * 10 // 100 : total * 12 // 100]:
        parents[id(rule)].children.append(Rule(words.sentence()))
    for rule in sentences[total * 12 // 100 : total * 125 // 1000]:
        words_only = [part for part in rule.parts if isinstance(part, str)]
        half = len(words_only) // 2
        rule.parts = words_only[:half]
        siblings = parents[id(rule)].children
        siblings.insert(siblings.index(rule) + 1, Rule(words_only[half:] + words.sentence(3, 6)))
    for rule in sentences[total * 125 // 1000 : total * 13 // 100]:
        parents[id(rule)].children.remove(rule)
        rng.choice([section for chapter in new[:-1] for section in chapter.children]).children.append(rule)
    return new


def _reword(rule: Rule, words: _Words) -> None:
    for _ in range(words.rng.randint(1, 3)):
        position = words.rng.randrange(len(rule.parts) + 1)
        if words.rng.random() < 0.5 and position < len(rule.parts) and isinstance(rule.parts[position], str):
            del rule.parts[position]
        else:
            rule.parts.insert(position, words.rng.choice(words.words))


def numbered(chapters: list[Rule]) -> dict[int, str]:
    """Each rule's number in this version (by ``id``): chapters ``100``, sections ``101``, then
    ``101.1``, ``101.1.a``, ``101.1.a.1``: digits and letters alternating, as Riftbound numbers."""
    numbers: dict[int, str] = {}

    def under(rule: Rule, number: str, depth: int) -> None:
        numbers[id(rule)] = number
        for index, child in enumerate(rule.children):
            label = str(index + 1) if depth % 2 == 0 else string.ascii_lowercase[index % 26]
            under(child, f"{number}.{label}", depth + 1)

    for chapter_index, chapter in enumerate(chapters, start=1):
        numbers[id(chapter)] = f"{chapter_index * 100}"
        for index, section in enumerate(chapter.children, start=1):
            numbers[id(section)] = f"{chapter_index * 100 + index}"
            for child_index, child in enumerate(section.children):
                under(child, f"{chapter_index * 100 + index}.{child_index + 1}", 1)
    return numbers


def text_of(rule: Rule, numbers: dict[int, str]) -> str:
    """The rule's text; a citation of a rule this version removed is left out with its number."""
    text = " ".join(
        numbers[id(part)] + "." if isinstance(part, Rule) else part
        for part in rule.parts
        if not isinstance(part, Rule) or id(part) in numbers
    )
    text = text[:1].upper() + text[1:]
    return text if rule.heading or text.endswith(".") else text + "."


def write_rulebook(path: Path, chapters: list[Rule], date: str) -> dict[int, str]:
    numbers = numbered(chapters)
    lines = [TITLE, "", f"Last Updated: {date}", ""]
    for chapter in chapters:
        for rule in walk(chapter):
            lines += [f"{numbers[id(rule)]}. {text_of(rule, numbers)}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return numbers


def write_rulings(path: Path, chapters: list[Rule], numbers: dict[int, str], count: int, rng: random.Random) -> None:
    """``count`` rulings citing rules of this version and naming cards of the bundled card list."""
    words = _Words(rng)
    cards = sorted({card["name"] for card in json.loads((CORPUS / "riftbound-cards.json").read_text())})
    cited = [rule for chapter in chapters[:-1] for rule in walk(chapter) if not rule.heading]
    lines = []
    for _ in range(count):
        card = rng.choice(cards)
        question = " ".join(["When", "a", "player", "plays", card, *words.sentence(6, 16)])
        lines.append(question.rstrip(".") + "?")
        answer = words.sentence(10, 30) + ["(see", "rule", numbers[id(rng.choice(cited))] + ")."]
        lines.append("Ruling: " + " ".join(answer).capitalize())
        for header in ("Sequence:", "Nuances:"):
            if rng.random() < 0.5:
                lines.append(header)
                lines += ["- " + " ".join(words.sentence(5, 14)).capitalize() for _ in range(rng.randint(1, 4))]
    path.write_text("\n".join(lines), encoding="utf-8")


def generate(folder: Path, scale: float, seed: int = 15) -> dict[str, Path]:
    """The three files for ``scale``, written to ``folder``: {"old": ..., "new": ..., "rulings": ...}."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    old = rulebook(scale, rng)
    new = updated(old, rng)
    paths = {
        "old": folder / "synthetic-core-rules-old.txt",
        "new": folder / "synthetic-core-rules-new.txt",
        "rulings": folder / "synthetic-rulings.txt",
    }
    write_rulebook(paths["old"], old, OLD_DATE)
    numbers = write_rulebook(paths["new"], new, NEW_DATE)
    write_rulings(paths["rulings"], new, numbers, max(1, round(RULINGS * scale)), rng)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scale", type=float, default=1)
    arguments = parser.parse_args()
    for name, path in generate(arguments.folder, arguments.scale).items():
        print(f"{name}: {path} ({sum(1 for line in path.open() if line.strip())} lines)")


if __name__ == "__main__":
    main()
