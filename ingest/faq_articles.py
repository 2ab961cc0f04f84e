"""What the two shapes of official FAQ files share: one FAQ article (markdown prose) cut into rulings.

An article is a publisher's page of questions and answers (Riot's per-set rules FAQs) or of rulings under
headings (an event's rulings page). Its questions are found in any of the forms the articles use:

- a heading that asks (``### Q: How do I score?``, ``## Can I ...?``);
- a line in bold that asks (``**What happens when ...?**``);
- a paragraph of its own, one line ending in ``?`` (``What happens if you Brush a Brush?``).

Each question runs to the next question or the next section heading. A section heading is a heading of the
article's top level (``## Movement``) when the article asks questions (its deeper headings, such as a card's
revised text, are part of the answer they sit in), or any heading when it asks none. Text a section holds
before its first question (Riot's "Revised and Clarified Rulings", an errata notice) is a ruling of its own,
a *clarification* titled by its heading; so is each heading's text in an article that asks no questions.
A short line naming a card just before a question (``Draven, Audacious``, then its image) is that question's
topic, not the end of the answer before it. Images are skipped; the text before the first section is the
article's introduction (a note about the source). Questions are numbered ``q1``, ``q2``, ... in document
order (the anchors ``faq:<date>#q<N>`` cites), clarifications ``c1``, ``c2``, ...

Rule numbers are found in ``Relevant Rules: 359.3.f.1., 359.3.f.2.`` lines and in the prose (``per rule
187.4.c.``, ``rules 718.2. and 135.4.``, ``per 438.1.``) and in rule text the article quotes (``438.1.Replacing
is ...``). A sentence saying the article takes precedence over the Core Rules is kept as its claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.model import ParsedCitation, ParsedNote, ParsedRuling, ParsedRulings, SkippedLine
from ingest.text import plain_text

# Riot's own sites: an article published there is Riot's, whatever the file calls its source.
RIOT_DOMAINS = ("leagueoflegends.com", "playriftbound.com", "riotgames.com")
RIOT = "Riot Games"

_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_QUESTION_PREFIX = re.compile(r"^Q\s*:\s*", re.IGNORECASE)
_BOLD_LINE = re.compile(r"^\s*\*\*(?P<text>[^*].*?)\*\*\s*$")
_IMAGE = re.compile(r"^\s*(?:<img\b[^>]*>|!\[[^\]]*\]\([^)]*\))\s*$", re.IGNORECASE)
_RULER = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s")
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)")
_RELEVANT = re.compile(r"^\s*Relevant\s+Rules?\s*:\s*(?P<numbers>.*)$", re.IGNORECASE)
# A rule number of the Core Rules: three digits (000-999), then dotted parts (.1, .e). Written with at least one
# part (``438.1``), with a dot after it (``375.``, the way Riot writes ``Relevant Rules``), or after the word rule;
# a rule the article quotes is glued to its text, even to the sentence before (``wins.467.When a cleanup``).
_NUMBER = r"\d{3}(?:\.(?:\d+|[a-z]))*"
_CITED = re.compile(
    rf"(?<![\w\-/$])(?<!\d\.)(?P<glued>\d{{3}}(?:\.(?:\d+|[a-z]))*)\.(?=[A-Z][a-z])"
    rf"|(?<![\w.\-/$])(?:(?P<word>\b(?:[Rr]ules?|[Pp]er)\s+)?)(?P<number>{_NUMBER})(?P<dot>\.)?(?![\d\w-])",
)
# A rule's text quoted after its number: glued to it (``438.1.Replacing``), after an (OLD)/(NEW) mark, at the start
# of a line (``323.1.1. If a player ...``), or after "says" / "should read"; it ends where the next quoted rule's
# number starts (``...wins.467.When``), at a closing quote mark, or at the line's end.
_QUOTE_MARK = re.compile(r"^\s*\((?:OLD|NEW)\)\s*")
_SAYS = re.compile(r"^\s*(?:says|should\s+read)\s*[,:]?\s*", re.IGNORECASE)
_NEXT_QUOTED = re.compile(r"(?<=[.!?\"\u201d])\s*\d{3}(?:\.(?:\d+|[a-z]))*\.")
_QUOTE_WORDS = 4  # fewer words are not a rule's text
_PRECEDENCE = re.compile(r"[^.]*\btakes? precedence\b[^.]*\.", re.IGNORECASE)
_CAPTION_MAX = 60
_CAPTION_END = tuple(".?!:;,\"'\u201d)")


@dataclass
class Article:
    """One FAQ article as a file holds it: its body's lines and where the first of them is in the file."""

    id: str
    title: str
    published: str  # ISO date
    url: str | None
    source: str  # who the file says published it
    lines: list[str]
    first_line: int = 1  # the file's line number of lines[0] (1 for an article inside a JSON string)

    @property
    def publisher(self) -> str:
        """Riot Games for an article on Riot's sites, else the source the file names (an event's rulings page by
        its author)."""
        host = re.sub(r"^[a-z]+://", "", self.url or "").split("/", 1)[0].lower()
        return RIOT if any(host == domain or host.endswith("." + domain) for domain in RIOT_DOMAINS) else self.source


@dataclass
class _Unit:
    kind: str  # "question" or "clarification"
    title: str
    line: int
    section: str | None
    topic: str | None = None
    body: list[tuple[int, str]] = field(default_factory=list)

    def prose(self) -> list[tuple[int, str]]:
        return [(number, text) for number, text in self.body if text.strip()]


def parse_article(article: Article) -> ParsedRulings:
    """The article's questions and clarifications as rulings, credited to its publisher, dated and linked."""
    numbered = list(enumerate(article.lines, start=article.first_line))
    asks = [_question(text, numbered, index) is not None for index, (_, text) in enumerate(numbered)]
    levels = [len(match.group("marks")) for _, text in numbered if (match := _HEADING.match(text))]
    top = min(levels, default=0)
    units: list[_Unit] = []
    skipped: list[SkippedLine] = []
    intro: list[tuple[int, str]] = []
    section: str | None = None
    current: _Unit | None = None
    topic: str | None = None
    for index, (number, text) in enumerate(numbered):
        question = _question(text, numbered, index) if asks[index] else None
        heading = _HEADING.match(text)
        if question is not None:
            current = _Unit("question", question, number, section, topic)
            units.append(current)
            topic = None
        elif heading and (not any(asks) or len(heading.group("marks")) == top):
            section = _clean(heading.group("text"))
            current = _Unit("clarification", section, number, section)
            units.append(current)
        elif _IMAGE.match(text):
            skipped.append(SkippedLine(number, text, "an image"))
        elif _RULER.match(text):
            skipped.append(SkippedLine(number, text, "a separator"))
        elif any(asks) and _is_caption(text, numbered, index, asks):
            topic = _clean(text)
            skipped.append(SkippedLine(number, text, "the topic of the question after it"))
        elif current is None:
            intro.append((number, text))
        else:
            current.body.append((number, text))
    rulings: list[ParsedRuling] = []
    questions = clarifications = 0
    for unit in units:
        if unit.kind == "clarification" and not unit.prose():
            skipped.append(SkippedLine(unit.line, f"{unit.title}", "a section heading with no text of its own"))
            continue
        if unit.kind == "question":
            questions += 1
            anchor = f"q{questions}"
        else:
            clarifications += 1
            anchor = f"c{clarifications}"
        rulings.append(_ruling(article, unit, len(rulings) + 1, anchor))
    text = "\n".join(article.lines)
    claim = _PRECEDENCE.search(text)
    notes = (
        [ParsedNote(0, "Introduction", _answer([text for _, text in intro]), [n for n, t in intro if t.strip()])]
        if any(t.strip() for _, t in intro)
        else []
    )
    return ParsedRulings(
        rulings=rulings,
        notes=notes,
        skipped=sorted(skipped, key=lambda entry: entry.line),
        nonblank_lines=sum(1 for line in article.lines if line.strip()),
        source=article.publisher,
        official=article.publisher == RIOT,
        line_count=len(article.lines),
        precedence=" ".join(claim.group(0).split()) if claim else None,
        published=article.published,
        url=article.url,
    )


def _ruling(article: Article, unit: _Unit, position: int, anchor: str) -> ParsedRuling:
    answer = _answer([text for _, text in unit.body])
    question = unit.title
    return ParsedRuling(
        position=position,
        question=question,
        ruling=answer,
        citations=find_citations(question + "\n" + "\n".join(text for _, text in unit.body)),
        lines=[unit.line, *(number for number, _ in unit.prose())],
        raw="\n".join(text for _, text in unit.body).strip(),
        page=article.id,
        page_title=unit.topic or unit.section or article.title,
        category="question" if unit.kind == "question" else "clarification",
        anchor=anchor,
        url=article.url,
        author=article.publisher,
        created_at=article.published,
        reviewed_version=article.published,
    )


def _question(text: str, numbered: list[tuple[int, str]], index: int) -> str | None:
    """The question a line asks, if it is one: a heading or bold line that asks, or a one-line paragraph that
    ends with a question mark."""
    heading = _HEADING.match(text)
    if heading:
        title = heading.group("text")
        if _QUESTION_PREFIX.match(title) or _clean(title).endswith("?"):
            return _clean(_QUESTION_PREFIX.sub("", title))
        return None
    bold = _BOLD_LINE.match(text)
    if bold:
        return _clean(bold.group("text")) if bold.group("text").strip().endswith("?") else None
    stripped = text.strip()
    if not stripped.endswith("?") or _LIST_ITEM.match(text) or stripped.startswith(">"):
        return None
    before = numbered[index - 1][1] if index > 0 else ""
    after = numbered[index + 1][1] if index + 1 < len(numbered) else ""
    return _clean(stripped) if not before.strip() and not after.strip() else None


def _is_caption(text: str, numbered: list[tuple[int, str]], index: int, asks: list[bool]) -> bool:
    """A short line with no closing punctuation whose next lines (images aside) are a question: the name of what
    the question is about."""
    stripped = text.strip()
    if not stripped or len(stripped) > _CAPTION_MAX or stripped.endswith(_CAPTION_END) or _LIST_ITEM.match(text):
        return False
    if _HEADING.match(text) or _BOLD_LINE.match(text):
        return False
    for later in range(index + 1, len(numbered)):
        following = numbered[later][1]
        if not following.strip() or _IMAGE.match(following):
            continue
        return asks[later]
    return False


def _clean(text: str) -> str:
    """A line of markdown as plain text: links as their words, emphasis and tags dropped."""
    text = _LINK.sub(lambda match: match.group("text"), text)
    text = re.sub(r"(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    return plain_text(text).strip()


def _answer(lines: list[str]) -> str:
    """The answer as plain text, a paragraph per line; headings inside it (a card's revised text) kept as
    lines."""
    out: list[str] = []
    for line in lines:
        heading = _HEADING.match(line)
        text = _clean(heading.group("text") if heading else line)
        if text:
            out.append(text)
    return "\n".join(out)


def find_citations(text: str) -> list[ParsedCitation]:
    """Rule numbers an article cites, in order, each with the words as written (``rule 187.4.c``), without the dot
    that ends the number or the sentence (``359.3.f.1.`` cites 359.3.f.1, as ``359.3.f.1`` does)."""
    found: list[ParsedCitation] = []
    for line in text.split("\n"):
        relevant = _RELEVANT.match(line)
        for match in _CITED.finditer(line):
            number = match.group("number") or match.group("glued")
            said = bool(relevant or match.group("word") or match.group("glued"))
            # a bare "123." ends a sentence more often than it cites: only in a list of rules, or at the line's end
            if "." in number or said or (match.group("dot") and _ends_rule_like(line, match.end())):
                raw = match.group(0).strip().rstrip(".")  # the sentence's dot is not its
                found.append(ParsedCitation(number, raw, _quote(line, match)))
    return found


def _quote(line: str, match: re.Match) -> str:
    """The rule's text the line quotes right after this number, or ""."""
    rest = line[match.end() :]
    if match.group("glued"):
        quote = rest
    elif not match.group("dot"):
        return ""
    elif _QUOTE_MARK.match(rest):
        quote = _QUOTE_MARK.sub("", rest)
    elif _SAYS.match(rest):
        quote = _SAYS.sub("", rest)
        if quote[:1] in '"\u201c':
            quote = re.split(r"[\"\u201d]", quote[1:], maxsplit=1)[0]
    elif not match.group("word") and not line[: match.start()].strip() and rest[:1] == " ":
        quote = rest
    else:
        return ""
    end = _NEXT_QUOTED.search(quote)
    quote = (quote[: end.start()] if end else quote).strip()
    return quote if len(quote.split()) >= _QUOTE_WORDS else ""


def _ends_rule_like(line: str, end: int) -> bool:
    """After a bare ``123.``: another number follows (a list of rules), or the line ends there."""
    rest = line[end:].lstrip(" ,")
    return not rest or rest[:1].isdigit() or rest.lower().startswith(("and ", "or "))
