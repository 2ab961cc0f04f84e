"""Adapter for the Rush of Ikorr Comprehensive Rules (``NUMBER<TAB>TEXT`` lines).

Numbers are compact: letters attach to the digit before them and digits after a
letter are dotted (``1.2e.1a.1``). The parent drops the last alphanumeric run
(``1.2e.1a.1 -> 1.2e.1a -> 1.2e.1 -> 1.2e -> 1.2 -> 1``; ``4.0 -> 4``). Chapters
are ``<b>N</b><TAB><b>TITLE</b>`` or, once, markdown (``# 10`` with the title on
a later ``# ADDITIONAL RULES`` line).

The markdown table of contents before the body repeats the body's numbers with
other titles; it is skipped, never ingested. Tab-led lines continue the rule
above them, and blank lines (page breaks) never end a rule.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.errors import IngestError
from ingest.model import ParsedKeyword, ParsedReference, ParsedRule, ParsedRulebook, ParseIssue, SkippedLine
from ingest.outline import CONTENTS, account_for_lines, assemble
from ingest.source import nonblank_count
from ingest.text import plain_text

_RULE = re.compile(r"^(?:<b>)?(?P<number>\d+(?:\.[0-9A-Za-z]+)*)(?:</b>)?\t(?P<text>.*?)\s*$")
_MARKDOWN_CHAPTER = re.compile(r"^#{1,6}\s*(?P<number>\d+)\.?(?:\s+(?P<title>.*\S))?\s*$")
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s*(?P<title>.*\S)\s*$")
_CONTENTS = re.compile(r"^#{1,6}\s*(?:table\s+of\s+)?contents\s*$", re.IGNORECASE)
_CONTENTS_ENTRY = re.compile(r"^\s*(?:#{1,6}\s|-\s)")
_RUN = re.compile(r"\d+|[A-Za-z]+")
_REFERENCE = re.compile(r"\((?P<number>\d+(?:\.[0-9A-Za-z]+)+)\)")
_WHOLE_BOLD = re.compile(r"^<b>(?P<term>[^<]+)</b>$")
_BOLD = re.compile(r"<b>(?P<terms>[^<]+)</b>")
_PARAMETER = re.compile(r"(?<!\s)\s+[NX]\b")  # from a run's start: linear in a long run
_TITLE_END = re.compile(r"[.:;!?\"”]$")

GLOSSARY_CHAPTER = re.compile(r"\bglossary\b", re.IGNORECASE)
KEYWORD_FAMILY = re.compile(r"\bkeyword|\btrigger", re.IGNORECASE)
MAX_TITLE_WORDS = 8


def canonical(printed: str) -> str:
    """``3.18a1`` -> ``3.18a.1``: a letter joins the digit before it, a digit after a letter is dotted."""
    runs = _RUN.findall(printed)
    return runs[0] + "".join(run if run.isalpha() else f".{run}" for run in runs[1:])


def parent_of(number: str) -> str | None:
    runs = _RUN.findall(number)
    return canonical(" ".join(runs[:-1])) if len(runs) > 1 else None


def sniff(lines: list[str]) -> bool:
    """Tab-separated rules with compact letter-suffixed numbers (``1.2e<TAB>``) and no trailing dots."""
    compact = sum(1 for line in lines if re.match(r"^\d+\.\d+[a-z](?:\.\d+[a-z]?)*\t", line))
    dotted = sum(1 for line in lines if re.match(r"^\d+(?:\.[0-9a-z]+)*\.\t", line))
    return compact >= 5 and compact > dotted


def parse(lines: list[str], path: Path) -> ParsedRulebook:
    issues: list[ParseIssue] = []
    skipped: list[SkippedLine] = []
    rules = _read_rules(lines, skipped, issues)
    if not rules:
        first = next((text for text in lines if text.strip()), None)
        raise IngestError(path, None, "numbered rules (NUMBER<TAB>TEXT)", first)
    rules = assemble(rules, parent_of, issues)
    _mark_titles(rules)
    return ParsedRulebook(
        rules=rules,
        references=_references(rules),
        keywords=_keywords(rules),
        skipped=account_for_lines(lines, rules, skipped),
        issues=issues,
        nonblank_lines=nonblank_count(lines),
    )


def _read_rules(lines: list[str], skipped: list[SkippedLine], issues: list[ParseIssue]) -> list[ParsedRule]:
    rules: list[ParsedRule] = []
    in_contents = False
    untitled_chapter: ParsedRule | None = None
    for index, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if _CONTENTS.match(raw) or (in_contents and _CONTENTS_ENTRY.match(raw)):
            in_contents = True
            skipped.append(SkippedLine(index, raw, CONTENTS))
            continue
        in_contents = False
        if found := _RULE.match(raw):
            rules.append(_rule(found, index, issues))
            untitled_chapter = None
        elif found := _MARKDOWN_CHAPTER.match(raw):
            title = found["title"] or ""
            rules.append(
                ParsedRule(
                    found["number"], title, [index], heading=plain_text(title) or None, printed_number=found["number"]
                )
            )
            untitled_chapter = None if title else rules[-1]
        elif untitled_chapter is not None and (found := _MARKDOWN_HEADING.match(raw)):
            untitled_chapter.raw_text, untitled_chapter.heading = found["title"], plain_text(found["title"])
            untitled_chapter.lines.append(index)
            untitled_chapter = None
        elif rules:
            rules[-1].raw_text = f"{rules[-1].raw_text}\n{raw.strip()}"
            rules[-1].lines.append(index)
        else:
            reason = "title" if _MARKDOWN_HEADING.match(raw) else "front matter before the rules"
            skipped.append(SkippedLine(index, raw, reason))
    return rules


def _rule(found: re.Match, line: int, issues: list[ParseIssue]) -> ParsedRule:
    printed, text = found["number"], found["text"]
    number = canonical(printed)
    if number != printed:
        issues.append(ParseIssue("malformed", f"{printed} is read as {number}", line=line, number=number))
    if "." not in number:  # a chapter: <b>1</b>\t<b>GAME OVERVIEW</b>
        return ParsedRule(number, text, [line], heading=plain_text(text), printed_number=printed)
    if not text:
        issues.append(ParseIssue("empty", f"{number} is printed without text", line=line, number=number))
    return ParsedRule(number, text, [line], inferred=number != printed, printed_number=printed)


def _mark_titles(rules: list[ParsedRule]) -> None:
    """A short rule without a comma or closing punctuation that has rules under it
    is a section title (``1.1 Number of Players``, ``3.1d Back Side``); the table of
    contents lists exactly such titles."""
    parents = {rule.parent for rule in rules}
    for rule in rules:
        first_line = plain_text(rule.raw_text.split("\n")[0])
        if (
            rule.heading is None
            and rule.number in parents
            and first_line
            and len(first_line.split()) <= MAX_TITLE_WORDS
            and not _TITLE_END.search(first_line)
            and "," not in first_line
        ):
            rule.heading = first_line


def _references(rules: list[ParsedRule]) -> list[ParsedReference]:
    """Parenthesised bare numbers: ``(8.2)``, ``(10.2a)``. A bare ``(2)`` is a cost, not a rule."""
    return [
        ParsedReference(rule.number, found.group(), [canonical(found["number"])])
        for rule in rules
        for found in _REFERENCE.finditer(rule.raw_text)
    ]


# --- keywords ---------------------------------------------------------------------------------------


def _keywords(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    glossary = _glossary(rules)
    keywords = glossary + _defined_terms(rules, {entry.defining_number for entry in glossary if entry.defining_number})
    keywords += _keyword_family(rules, glossary)
    return keywords


def _glossary(rules: list[ParsedRule]) -> list[ParsedKeyword]:
    """Each heading rule of the glossary chapter is a term; a reference inside it
    (``Search (3.17)``) is not part of the term. Case variants stay distinct."""
    chapters = {rule.number for rule in rules if rule.parent is None and GLOSSARY_CHAPTER.search(rule.heading or "")}
    return [
        ParsedKeyword(_REFERENCE.sub("", plain_text(rule.raw_text)).strip(), "glossary term", rule.number)
        for rule in rules
        if rule.parent in chapters
    ]


def _defined_terms(rules: list[ParsedRule], glossary_numbers: set[str]) -> list[ParsedKeyword]:
    """A rule whose whole text is one bold term (``2.1 <b>Avatar</b>``) defines that
    term. Bold inside sentences marks every use of a term, so it defines nothing."""
    terms: dict[str, ParsedKeyword] = {}
    for rule in rules:
        found = _WHOLE_BOLD.match(rule.raw_text.strip())
        if found and rule.parent is not None and rule.number not in glossary_numbers:
            term = plain_text(found["term"])
            terms.setdefault(term, ParsedKeyword(term, "defined term", rule.number))
    return list(terms.values())


def _keyword_family(rules: list[ParsedRule], glossary: list[ParsedKeyword]) -> list[ParsedKeyword]:
    """Keywords are the names a keyword or trigger section lists in its examples
    (``6.5a.1 Ex. <b>Swift, Lethal, Quick Strike</b>``) and the glossary terms
    printed in capitals, as card text prints keywords (``SUMMON –``, ``ACTION –``).
    Each must have its own heading rule; ``Foresee`` is defined by ``Foresee N``."""
    names = [
        name
        for rule in _family_examples(rules)
        for span in _BOLD.finditer(rule.raw_text)
        for name in (part.strip() for part in span["terms"].split(","))
        if name
    ]
    names += [entry.term for entry in glossary if entry.term.isupper()]
    keywords: dict[str, ParsedKeyword] = {}
    for name in names:
        definition = _defining_entry(_PARAMETER.sub("", name), glossary)
        if definition is not None:
            term = _PARAMETER.sub("", name)
            aliases = [definition.term] if definition.term != term else []
            keywords.setdefault(term, ParsedKeyword(term, "keyword", definition.defining_number, aliases))
    return list(keywords.values())


def _family_examples(rules: list[ParsedRule]) -> list[ParsedRule]:
    by_number = {rule.number: rule for rule in rules}
    examples = []
    for rule in rules:
        if not plain_text(rule.raw_text).lower().startswith("ex"):
            continue
        ancestor = by_number.get(rule.parent or "")
        while ancestor is not None and not KEYWORD_FAMILY.search(ancestor.heading or ""):
            ancestor = by_number.get(ancestor.parent or "")
        if ancestor is not None and ancestor.parent is not None:
            examples.append(rule)
    return examples


def _defining_entry(name: str, glossary: list[ParsedKeyword]) -> ParsedKeyword | None:
    exact = [entry for entry in glossary if _PARAMETER.sub("", entry.term) == name]
    folded = [entry for entry in glossary if _PARAMETER.sub("", entry.term).lower() == name.lower()]
    return next(iter(exact or folded), None)
