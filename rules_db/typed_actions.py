"""What a judge types into a page: a value (a what-if's, YAML), and an action, said as a sentence or written as YAML.

An action is said in words by `describe_action` ("A plays Quick Jab at bf1 choosing target: u2"), as the builder's
list of allowed actions and the trace say it; `read_action` reads such a sentence back (objects named by their id
or their card's name, in any case), or a YAML mapping whose objects may be named by their cards, into the engine's
action. The two directions share one vocabulary (`VERBS`, `ACTED_ON`, `PLACES`), so a sentence the list offers
always reads back. An action that reads as none is a `MalformedAction`, which says how to type one.
"""

from __future__ import annotations

import itertools
import re
import typing
from typing import Any

from scenarios import kernel, schema
from scenarios.actions import Choose, parse_action
from scenarios.kernel import Refusal
from scenarios.state import GameState


class MalformedAction(ValueError):
    """An action typed in a form that reads as no action: its form is wrong, no rule forbids it."""


def parse_value(text: str):
    """A value typed into a what-if form (YAML: `3`, `zh`, `[a, b]`, `{card: X}`), bounded like a scenario."""
    wrapped = f"value: {text}" if "\n" not in text else "value:\n" + text
    try:
        data, _ = schema.parse_text(wrapped, "what-if", schema.PAGE_LIMITS)
    except schema.ScenarioError as error:
        raise ValueError(f"the value {text!r} is not one the form can read: {error.message}") from None
    return data.get("value")


def typed_action(text: str):
    """What a judge typed as an action: a YAML mapping when it is written as one (`{by: A, do: pass}`), else the
    sentence itself (`A plays Gust choosing target: Test Defender`, which YAML would misread), as long as a
    value of a scenario may be."""
    if text.lstrip().startswith("{"):
        return parse_value(text)
    sentence = text.strip()
    if len(sentence) > schema.PAGE_LIMITS.max_text:
        raise ValueError(
            f"the action typed is {len(sentence):,} characters long, more than an action may be "
            f"({schema.PAGE_LIMITS.max_text:,}): type it as the list of actions says it"
        )
    return sentence


def read_action(game: GameState, typed):
    """The action a judge typed: a sentence as the list of legal actions says it, or a YAML mapping whose objects
    may be named by their cards. A malformed one is a `MalformedAction`."""
    if isinstance(typed, str):
        return _said_action(game, typed)
    try:
        return parse_action(_ids_for_names(game, typed))
    except Refusal as malformed:
        raise MalformedAction(malformed.message) from None


def _said_action(game: GameState, sentence: str):
    """The action a sentence names, whether or not the rules allow it (so the engine's refusal says which rule
    forbids it): the sentence read back into the YAML form `describe_action` says it in, objects named by their
    card or their id in any case, then parsed as a YAML action is."""
    data = _SentenceReader(game, sentence).action()
    try:
        return parse_action(data)
    except Refusal as malformed:
        raise MalformedAction(f"{sentence!r} does not read as an action: {malformed.message}") from None


class _SentenceReader:
    """A sentence as `describe_action` says an action ("A plays Quick Jab at bf1 choosing target: u2, accelerate
    True"), read as words (folded: case and punctuation dropped) and objects (an id or a card's name, longest
    first), then back into the fields of its action."""

    def __init__(self, game: GameState, sentence: str):
        self.game, self.sentence = game, sentence
        self.named = _objects_by_name(game)
        self.longest = max(map(len, self.named), default=0)
        self.tokens = self.tokens_of(sentence)

    def tokens_of(self, text: str) -> list[str | tuple[str, list[str]]]:
        """Each word of the text, or (the name typed, the objects it names) for each name of an object."""
        words = folded(text).split()
        tokens: list[str | tuple[str, list[str]]] = []
        position = 0
        while position < len(words):
            size = next(
                (n for n in range(self.longest, 0, -1) if tuple(words[position : position + n]) in self.named), 0
            )
            if size:
                name = tuple(words[position : position + size])
                tokens.append((" ".join(name), self.named[name]))
            else:
                tokens.append(words[position])
            position += size or 1
        return tokens

    def not_read(self, why: str) -> MalformedAction:
        return MalformedAction(
            f"no action reads {self.sentence!r}: {why}. Type one as the list says it (“A moves Test Unit to Neutral "
            "Ground”), or as YAML ({by: A, do: move, units: [u1], to: bf1})"
        )

    def action(self) -> dict:
        if not self.tokens:
            raise self.not_read("it holds no words")
        first = self.tokens[0]
        by = next((p for p in self.game.players if isinstance(first, str) and folded(p) == first), None)
        if by is None:
            raise self.not_read(f"it starts with no player ({', '.join(self.game.players)})")
        rest = self.tokens[1:]
        if rest[:2] == ["answers", "the"] and "question" in rest:
            asked = rest.index("question")
            return {
                "by": by,
                "do": "choose",
                "choice": "_".join(map(str, rest[2:asked])),
                "pick": self.pick(rest[asked + 1 :]),
            }
        verbs = {do: folded(VERBS.get(do, do + "s")).split() for do in kernel.ACTIONS}
        do = next((do for do, verb in verbs.items() if rest[: len(verb)] == verb), None)
        if do is None:
            said = ", ".join(" ".join(verb) for verb in verbs.values())
            raise self.not_read(f"{self.typed(rest[:1]) or 'nothing'!r} after the player names no action ({said})")
        return {"by": by, "do": do, **self.fields(kernel.ACTIONS[do].model, rest[len(verbs[do]) :])}

    def fields(self, model, tokens: list) -> dict:
        """The fields after the verb: what it acts on, then groups of words each followed by objects or a value
        ("to bf1", "choosing target: u2", "accelerate True", "repeat_targets target: u3")."""
        data: dict[str, Any] = {}
        acted = self.objects_from(tokens)
        if acted:
            acted_on = next(f for f in ACTED_ON if f in model.model_fields)
            listed = typing.get_origin(model.model_fields[acted_on].annotation) is tuple  # `units`: always a list
            data[acted_on] = acted if listed else _one_or_all(acted)
        rest, slots = tokens[len(acted) :], None
        while rest:
            key, values, rest = self.group(rest)
            field, size = ("targets", 1) if key[0] == "choosing" else _field_named(model, key)
            if field is not None and isinstance(model.model_fields[field].default, dict | tuple):
                slots, key = field, key[size:]
            if not key:
                raise self.not_read("a target is said with its name (“choosing target: Test Unit”)")
            name = "_".join(key)
            if slots is not None and all(isinstance(value, str) and value in self.game.objects for value in values):
                per_execution = isinstance(model.model_fields[slots].default, tuple)
                if not per_execution and name in data.get(slots, {}):
                    raise self.not_read(f"{' '.join(key)!r} is said twice")
                _add_slot(data, slots, per_execution, name, _one_or_all(values))
            elif name in data:
                raise self.not_read(f"{' '.join(key)!r} is said twice")
            else:
                data[name] = _one_or_all(values)
        return data

    def group(self, tokens: list) -> tuple[list[str], list, list]:
        """The words at the start of tokens, the objects (or the one value) after them, and what follows."""
        key = list(itertools.takewhile(lambda token: isinstance(token, str) and _scalar(token) is None, tokens))
        unnamed = list(itertools.takewhile(lambda word: word not in _KEYWORDS, key))
        if unnamed and (len(unnamed) < len(key) or len(key) == len(tokens)):  # "Foo to bf1", or "Foo" at the end
            raise self.not_read(f"{' '.join(unnamed)!r} names no object of this dispute")
        if key and key[0] in PLACES:  # a place: an object, or a word ("base")
            key = key[:1]
        if len(key) == len(tokens):
            raise self.not_read(f"no object of this dispute follows {key[-1]!r}")
        if not key:
            raise self.not_read(f"{self.typed(tokens[:1])!r} follows no word saying what it is")
        values = self.objects_from(tokens[len(key) :]) or [self.word(tokens[len(key)])]
        return key, values, tokens[len(key) + len(values) :]

    def objects_from(self, tokens: list) -> list[str]:
        """The ids of the objects named at the start of tokens (a name shared by several objects is refused)."""
        named = itertools.takewhile(lambda token: isinstance(token, tuple), tokens)
        return [_one_object(self.game, ids) for _, ids in named]

    def pick(self, tokens: list):
        """An answer: the one the question offers that the words say (an order of abilities, said by their
        labels), else objects, players or values (objects each followed by a number are an assignment)."""
        offered = [c.pick for c in self.game.candidates() if isinstance(c, Choose)]
        said = [pick for pick in offered if _says(tokens, self.tokens_of(value_words(pick)))]
        if len(said) > 1:
            raise self.not_read(
                f"it says {len(said)} of the answers offered, told apart only in brackets: type it as YAML "
                "({by: A, do: choose, choice: order, pick: [...]}) with the pick the list's YAML gives"
            )
        if said:
            return said[0]
        values = [self.objects_from([token])[0] if isinstance(token, tuple) else self.word(token) for token in tokens]
        if len(values) > 1 and len(values) % 2 == 0 and all(isinstance(v, int) for v in values[1::2]):
            return dict(zip(values[::2], values[1::2], strict=True))
        return _one_or_all(values)

    def word(self, word: str):
        """A word of an answer: a player's name, a value, or the word itself."""
        player = next((p for p in self.game.players if folded(p) == word), None)
        scalar = _scalar(word)
        return player if player is not None else word if scalar is None else scalar

    @staticmethod
    def typed(tokens: list) -> str:
        return " ".join(token[0] if isinstance(token, tuple) else token for token in tokens)


def _says(typed: list, offered: list) -> bool:
    """Whether typed words say the offered ones: the same words, each object named by its id or its card."""
    return len(typed) == len(offered) and all(
        t == o if isinstance(t, str) or isinstance(o, str) else set(o[1]) <= set(t[1])
        for t, o in zip(typed, offered, strict=True)
    )


def _field_named(model, words: list[str]) -> tuple[str | None, int]:
    """The field of an action model the first words name (`repeat targets` or `repeat_targets`), and how many
    words name it; (None, 0) when they name none."""
    for size in range(len(words), 0, -1):
        if (field := "_".join(words[:size])) in model.model_fields:
            return field, size
    return None, 0


def _add_slot(data: dict, field: str, per_execution: bool, slot: str, value) -> None:
    """A target said for a slot: into the field's mapping, or (a field of one mapping per execution, as
    `repeat_targets`) into a new mapping when the last one has that slot already."""
    if not per_execution:
        data.setdefault(field, {})[slot] = value
        return
    executions = data.setdefault(field, [])
    if not executions or slot in executions[-1]:
        executions.append({})
    executions[-1][slot] = value


def _one_or_all(values: list):
    return values[0] if len(values) == 1 else values


def _scalar(word: str):
    """A value word said in a sentence (`True`, `2`) as YAML reads it, or None."""
    if word in ("true", "false"):
        return word == "true"
    return int(word) if word.isdigit() else None


def _ids_for_names(game: GameState, node):
    """A typed action with each card name (or id, in any case) that names an object replaced by that object's id."""
    named = _objects_by_name(game)

    def replaced(node):
        if isinstance(node, dict):
            return {key: value if key in ("by", "do") else replaced(value) for key, value in node.items()}
        if isinstance(node, list):
            return [replaced(value) for value in node]
        if not isinstance(node, str) or node in game.objects:
            return node
        ids = named.get(tuple(folded(node).split()))
        return _one_object(game, ids) if ids else node

    return replaced(node)


def _objects_by_name(game: GameState) -> dict[tuple[str, ...], list[str]]:
    """The objects each name names, a name as its folded words: every object's id and its card's name."""
    named: dict[tuple[str, ...], list[str]] = {}
    for obj in game.objects.values():
        for name in {folded(obj.id), folded(obj.card)}:
            named.setdefault(tuple(name.split()), []).append(obj.id)
    named.pop((), None)
    return named


def _one_object(game: GameState, ids: list[str]) -> str:
    """The one object a name names; a name several objects share asks for an id."""
    if len(ids) > 1:
        card = game.objects[ids[0]].card
        raise MalformedAction(f"{card!r} names {len(ids)} objects ({', '.join(ids)}): name one by its id")
    return ids[0]


def folded(text: str) -> str:
    """A name or sentence as a judge may type it: any case, without punctuation or the owner in brackets."""
    text = re.sub(r"\([^()]*\)", " ", text.casefold())  # innermost brackets: linear on a run of "("
    return " ".join(re.sub(r"[^\w\s]", "", text).split())


VERBS = {"move": "moves", "play": "plays", "pass": "passes", "end_turn": "ends the turn", "hide": "hides"}
ACTED_ON = ("card", "source", "units")  # what the verb acts on: named right after it
PLACES = ("to", "at")  # where it goes: after that
_KEYWORDS = {*PLACES, "choosing"}  # the words before a place or the targets (how `_SentenceReader` tells them)


def describe_action(action: dict) -> str:
    """A player action in words, ids left for `words` to name, in the order a judge says it: "A plays smoke at
    bf1 choosing target: d1", as the trace says a step."""
    details = {k: v for k, v in action.items() if k not in ("by", "do")}
    if action["do"] == "choose":
        return f"{action['by']} answers the {details['choice']} question: {value_words(details.get('pick'))}"
    words = [action["by"], VERBS.get(action["do"], action["do"] + "s")]
    words += [value_words(details.pop(key)) for key in ACTED_ON if key in details]
    words += [f"{key} {value_words(details.pop(key))}" for key in PLACES if key in details]
    if "targets" in details:
        words.append(f"choosing {value_words(details.pop('targets'))}")
    return " ".join(words) + "".join(f", {key} {value_words(value)}" for key, value in details.items())


def value_words(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}: {value_words(v)}" for key, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_words(v) for v in value)
    return str(value)
