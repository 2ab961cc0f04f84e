"""How replay pages draw a replay: the board (the macros of judges_board.html), the steps in words (routine steps
folded into the step that follows), the verdict with its deciding steps, a card, a step's words and its cited
rules, all as HTML made in Python (a page has hundreds of small pieces, and a Jinja macro call costs far more than a
function). Every text is escaped; the only links are ours. The views (replay_pages.py, dispute_pages.py) make a
`Marks` and a `Drawing` per page.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import jinja2
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from datasette_plugins import render
from datasette_plugins.web import Paths
from rules_db import queries


class Marks:
    """The replay pages' small repeated pieces as HTML, made in Python (a page has hundreds of them, and a
    Jinja macro call costs far more than a function): a card named by its object id, a step's words, its
    citations. Every text is escaped; the only links are ours."""

    def __init__(self, paths: Paths, labels: dict[str, dict], cited: dict[str, list[dict]], links: dict | None = None):
        self.paths, self.labels, self.cited = paths, labels, cited
        # A rule's link, by number and id; ``links`` keeps them beyond this page (``CitedRules.links``).
        self._cites: dict[tuple[str, int | None], Markup] = {} if links is None else links

    def card(self, object_id: str, link: bool = True, with_id: bool = True) -> Markup:
        """An object as its card and owner, with its id where another object has both (``with_id=False`` where
        the id is shown beside it anyway, as on the board)."""
        label = self.labels.get(object_id)
        if label is None:
            return escape(object_id)
        name = escape(label["name"])
        if link and label["url"]:
            named = f'<a class="card-ref" href="{escape(label["url"])}">{name}</a>'
        else:
            named = f'<span class="card-ref">{name}</span>'
        owner = label["said"] if with_id else label["owner"]
        return Markup(named + (f' <span class="owner">({escape(owner)})</span>' if owner else ""))

    def subject(self, row: dict, link: bool = True) -> Markup:
        """What an outcome row is about: an object's field (its card), a player's, or the game's."""
        if row.get("object"):
            return self.card(row["object"], link) + Markup(" ") + escape(row["field"])
        if row.get("player"):
            return escape(f"{row['player']}: {row['field']}")
        return escape(row["field"])

    def say(self, pieces: list[dict], link: bool = True, sentence: bool = False) -> Markup:
        """A step's words; `link=False` inside a link of its own (a step of the list), as links do not nest;
        `sentence`: said alone, starting with a capital (``render.sentence``)."""
        if sentence and pieces and "text" in pieces[0]:
            pieces = [{"text": render.sentence(pieces[0]["text"])}, *pieces[1:]]
        return Markup("".join(self.card(p["object"], link) if "object" in p else escape(p["text"]) for p in pieces))

    def value(self, value) -> Markup:
        """An observed value in words: yes / no / none, an object id as its card, a list item by item."""
        if value is None:
            return Markup("none")
        if isinstance(value, bool):
            return Markup("yes" if value else "no")
        if isinstance(value, str) and value in self.labels:
            return self.card(value)
        if isinstance(value, list):
            return Markup(", ").join(self.value(item) for item in value) if value else Markup("none")
        if isinstance(value, dict):
            return Markup("; ").join(Markup(f"{escape(key)}: ") + self.value(item) for key, item in value.items())
        return escape(value)

    def rules(self, numbers: list[str]) -> list[dict]:
        return queries.step_citations(self.cited, numbers)

    def cites(self, numbers: list[str]) -> Markup:
        links = [self.cite(rule) for rule in self.rules(numbers)]
        return Markup(f'<span class="cites">{"".join(links)}</span>') if links else Markup("")

    def cite(self, rule: dict) -> Markup:
        """A cited rule: its number linked, its text's start on hover; a rule of a version that is not the newest
        is followed by the same rule in the newest one (what the citation means today: `406.1 → 419.1`), kept
        together on one line, so a step citing five rules stays a row or two on a phone. Made once per rule:
        a replay's steps cite the same few rules again and again."""
        key = (rule["number"], rule["id"] if not rule.get("faq") else rule["ruling_id"])
        if key not in self._cites:
            self._cites[key] = self._cite(rule)
        return self._cites[key]

    def _cite(self, rule: dict) -> Markup:
        if rule.get("faq"):  # an official FAQ's entry: its ruling's page when the database holds it
            if rule["ruling_id"] is None:
                return Markup(f'<span class="cite faq">{escape(rule["number"])}</span>')
            return Markup(
                f'<a class="cite faq" href="{escape(self.paths.ruling(rule["ruling_id"]))}" '
                f'title="{escape(rule["number"])}: {escape(rule["quote"])}">{escape(rule["number"])}</a>'
            )
        if rule["id"] is None:
            return Markup(f'<span class="cite">{escape(rule["number"])}</span>')
        link = (
            f'<a class="cite" href="{escape(self.paths.rule(rule))}" title="{escape(rule["number"])}: '
            f'{escape(rule["quote"])}">{escape(rule["number"])}</a>'
        )
        if not rule.get("stale"):
            return Markup(link)
        today = "".join(
            f'<a class="cite" href="{escape(self.paths.rule(other))}" title="{escape(other["number"])} in '
            f'{escape(other["version"])}">{escape(other["number"])}</a>'
            for other in rule["in_newest"]
        )
        now = today or '<span class="gone" title="nothing like it in the newest rules">gone</span>'
        return Markup(
            f'<span class="cite-pair">{link}<span class="to" title="in the newest rules">→</span>{now}</span>'
        )

    def newest_version(self) -> str | None:
        """The newest version that the cited rules' counterparts are in (None when every cited rule is in it)."""
        for rows in self.cited.values():
            for row in rows:
                for other in row.get("in_newest") or []:
                    return other["version"]
        return None


_PARTS = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent / "templates"), autoescape=True
)


class Drawing:
    """The board, drawn by the macros of judges_board.html in a plain Jinja environment, and the step lists, built
    here: a replay has dozens of steps, and a macro call for each cost more than the rest of the page."""

    def __init__(self, *, mark: Marks, paths: Paths, nav: dict | None = None):
        self.mark, self.nav = mark, nav
        # The template's macros, looked up by name (``TemplateModule`` declares no attributes).
        self.module: Any = _PARTS.get_template("judges_board.html").make_module(vars={"mark": mark, "paths": paths})

    def board(self, board: dict, changed: dict, heading: str) -> Markup:
        return Markup(self.module.board_view(board, changed, heading))

    def object_ref(self, object_id: str) -> Markup:
        """An object's id as the board shows it (the YAML's and a typed action's name for it)."""
        return Markup(self.module.object_ref(object_id))

    def touched(self, step: dict) -> Markup:
        """What a step touches, drawn first (before the whole board): each object it changed or names that is on
        the board after it, and each player whose counts it changed."""
        board, changed = step.get("board"), step.get("changed") or {}
        if not board:
            return Markup("")
        named = [piece["object"] for piece in step["words"] if "object" in piece]
        ids = [i for i in dict.fromkeys([*changed.get("objects", {}), *named]) if i in board["objects"]]
        shown = [i for i in ids if board["objects"][i]["kind"] in ("unit", "gear", "legend", "battlefield")]
        players = [p for p in board["players"] if p["name"] in changed.get("players", {})]
        if not shown and not players:
            return Markup("")
        out = ['<div class="touched" aria-label="What this step touches">']
        for object_id in shown[:MAX_TOUCHED]:
            seen = board["objects"][object_id]
            if seen["kind"] == "battlefield":
                out.append(
                    f'<p class="touched-field">{self.mark.card(object_id, with_id=False)} {self.object_ref(object_id)}</p>'
                )
            elif seen["zone"] != "board":  # gone from the board: where it is now, not its last numbers
                out.append(
                    f'<p class="touched-field">{self.mark.card(object_id, with_id=False)} {self.object_ref(object_id)}: now in '
                    f"{escape(seen['zone'])}</p>"
                )
            else:
                out.append(str(self.module.obj(board, object_id, changed)))
        for player in players:
            fields = [f for f in changed["players"][player["name"]] if f in _COUNTS]
            said = ", ".join(f"{_count(player[f])} {_COUNTS[f]}" for f in fields)
            if said:
                out.append(f'<p class="touched-player">Player {escape(player["name"])}: {escape(said)}</p>')
        out.append("</div>")
        return Markup("".join(out))

    def steps(self, steps: list[dict], step: int, divergence: int | None) -> Markup:
        """The steps in words, each a link to the board after it, with the rules it cites; the starting board
        first. Routine steps (`routine`: a pass, a cleanup with nothing to clean) are folded, one tap to unfold,
        into a row just before the step that follows them, still numbered and linked (open when one is shown)."""
        assert self.nav is not None, "a step list links to the steps of a replay"
        current = ' aria-current="step"'
        out = [
            f'<ol class="judge-steps">\n<li class="depth-0{"" if step else " current"}"><a class="step-link" '
            f'href="{escape(self.nav["first"])}"{"" if step else current}><span class="n">0</span> The starting board'
            "</a></li>"
        ]
        folded: list[tuple[int, str]] = []
        open_fold = False

        def fold() -> None:
            nonlocal open_fold
            if not folded:
                return
            first, last = folded[0][0], folded[-1][0]
            said = (
                f"Routine step {first}: a pass or a cleanup with nothing to clean"
                if first == last
                else f"{len(folded)} routine steps, {first}–{last}: passes, cleanups with nothing to clean"
            )
            out.append(
                f'\n<li class="folded"><details{" open" if open_fold else ""}><summary>{said}</summary>'
                f'<ol class="judge-steps">{"".join(row for _, row in folded)}</ol></details></li>'
            )
            folded.clear()
            open_fold = False

        for index, s in enumerate(steps):
            shown, number = s["number"] == step, s["number"]
            row = (
                f'\n<li id="step-{number}" class="depth-{min(s["depth"], 4)} kind-{escape(s["kind"].replace(" ", "-"))}'
                f'{" current" if shown else ""}{" divergence" if divergence == number else ""}">'
                f'<a class="step-link" href="{escape(self.nav["step"](number))}"{current if shown else ""}>'
                f'<span class="n">{number}</span> <span class="words">{self.mark.say(s["words"], False)}</span></a>'
                f"{self.mark.cites(s['rules'])}</li>"
            )
            following = steps[index + 1] if index + 1 < len(steps) else None
            if routine(s, following) and divergence != number:
                folded.append((number, row))
                open_fold = open_fold or shown
                continue
            fold()
            out.append(row)
        fold()
        out.append("\n</ol>")
        return Markup("".join(out))

    def engine_steps(self, steps: list[dict]) -> Markup:
        """The trace as the engine wrote it: each step's kind, procedure, summary, cited numbers and change."""
        out = ['<ol class="engine-steps">']
        for s in steps:
            rules = f' <span class="note">[{render.dates(", ".join(s["rules"]))}]</span>' if s["rules"] else ""
            change = f'<br><code class="change">{htmlsafe_json_dumps(s["change"])}</code>' if s["change"] else ""
            out.append(
                f'<li class="depth-{min(s["depth"], 6)}"><span class="n">{s["number"]}</span> '
                f'<span class="kind">{escape(s["kind"])}</span> <code>{escape(s["procedure"])}</code> '
                f"{escape(s['summary'])}{rules}{change}</li>"
            )
        out.append("</ol>")
        return Markup("".join(out))

    def quotes(self, rules: list[dict]) -> Markup:
        return Markup(self.module.quotes(rules))


MAX_TOUCHED = 6  # objects drawn first, above the board
_COUNTS = {"points": "points", "energy": "energy", "power": "power", "hand": "in hand", "deck": "in deck"}
ROUTINE_FIELDS = frozenset({"priority", "passes", "focus"})  # whose turn to act: what a pass changes


def _count(value) -> str:
    return str(len(value)) if isinstance(value, list) else str(value)


def routine(step: dict, following: dict | None) -> bool:
    """A step a judge need not read to follow the game: a cleanup or a pass with no nested steps that changes
    nothing but who may act next (a cleanup with nothing to clean, a priority or focus pass)."""
    if step["kind"] not in ("cleanup", "action") or (following is not None and following["depth"] > step["depth"]):
        return False
    if step["kind"] == "action" and step["procedure"] != "pass":
        return False
    return all(field in ROUTINE_FIELDS for fields in (step["change"] or {}).values() for field in fields)


def object_labels(paths: Paths, names: dict[str, dict], slugs: dict[str, str]) -> dict[str, dict]:
    """How the page names each object: its card (linked to the card's page when the card list has it) and
    owner; a battlefield by its card alone. Two objects the card and owner would not tell apart (two copies of a
    card) are told apart by their ids too, as the board and the YAML name them: "Test Unit (B, d2)"."""
    owners = {object_id: None if name["kind"] == "battlefield" else name["owner"] for object_id, name in names.items()}
    alike = Counter((name["card"], owners[object_id]) for object_id, name in names.items())
    labels = {}
    for object_id, name in names.items():
        owner, real = owners[object_id], name["real"] or name["card"]
        labels[object_id] = {
            "name": name["card"],
            "owner": owner,
            "said": ", ".join(filter(None, (owner, object_id))) if alike[(name["card"], owner)] > 1 else owner,
            "kind": name["kind"],
            "url": paths.card(slugs[real]) if real in slugs else None,
        }
    return labels
