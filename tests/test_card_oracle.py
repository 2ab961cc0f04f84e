"""The card reader against the real cards (the bundled database): coverage per set, the hand-written cards of
scenarios/cards.yaml as its oracle, the library replayed with read cards in their place, a dispute per template
family judged with real read cards, and mutants of the templates' readings that those disputes kill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from read_cards import read_every_card, verdicts_with

import scenarios
from rules_db import card_readings
from scenarios import schema
from scenarios.card_reader import effects
from scenarios.cards import Card, load_library, use_read_cards
from scenarios.replay import replay_file, replay_variant

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("*.yaml"))

# Where a reading and a hand-written card differ, why (and which side is wrong): none left; the hand-written
# cards carry their printed Power cost and what an Equipment gives the equipped unit.
EXPLAINED: dict[str, str] = {}


@pytest.fixture
def read_cards(real_db):
    card_readings.load_read_cards(real_db)
    yield
    use_read_cards({})


def test_coverage_is_printed_per_set_then_in_total(real_connection):
    lines = card_readings.coverage_lines(real_connection)
    total = next(line for line in lines if line.startswith("cards read fully: "))
    read, of = (int(n) for n in total.split(": ")[1].split(" (")[0].split(" of "))
    assert of > 900 and read >= 700  # the floor reached; raise it as the grammar grows
    sets = lines[: lines.index(total)]
    assert {line.split(":")[0] for line in sets} >= {"Origins", "Spiritforged", "Unleashed", "Vendetta"}
    assert sum(int(line.split(": ")[1].split(" of ")[0]) for line in sets) == read


def test_every_unread_card_names_the_words_not_read(real_connection):
    for status, unread, definition in real_connection.execute("select status, unread, definition from card_readings"):
        if status == "read":
            Card.model_validate(json.loads(definition))
        else:
            assert json.loads(unread) and definition is None


def test_the_hand_written_cards_are_the_oracle(real_connection):
    results = card_readings.oracle(real_connection)
    equal = [r for r in results if r["result"] == "equal"]
    assert len(equal) >= 80, card_readings.oracle_lines(real_connection)
    for result in results:
        if result["result"] == "differs":
            assert set(result["fields"]) <= set(EXPLAINED), (result["card"], result["fields"])


def test_the_library_replays_the_same_with_read_cards_in_place(real_connection):
    """Each hand-written real card replaced by its reading (labels and slot names kept: scenarios name them),
    every library scenario replays to the same verdict, with the hand-written costs and with the read ones (the
    hand-written cards carry their printed Power cost and domain, as the card list prints them)."""
    readings = {
        name: json.loads(definition)
        for name, definition in real_connection.execute(
            "select c.name, r.definition from card_readings r join cards c on c.id = r.card_id where status = 'read'"
        )
    }
    before = {path: replay_file(path).verdict for path in scenarios.library_paths()}
    swapped, changed_with_hand_costs = _replayed_with_readings(readings, before, hand_costs=True)
    assert len(swapped) >= 50
    assert not changed_with_hand_costs
    _, changed = _replayed_with_readings(readings, before, hand_costs=False)
    assert not changed


def _replayed_with_readings(readings: dict, before: dict, hand_costs: bool) -> tuple[set, list]:
    library = load_library()
    saved = dict(library)
    swapped = set()
    try:
        for name, card in saved.items():
            if card.real in readings and card.type not in ("token", "rune"):
                definition = _as_named(readings[card.real], card)
                definition["name"] = name
                if hand_costs:
                    definition.update(power=card.power, domains=list(card.domains))
                library[name] = Card.model_validate(definition)
                swapped.add(name)
        changed = []
        for path in scenarios.library_paths():
            replay = replay_file(path)
            if replay.verdict != before[path]:
                changed.append((path.stem, " ".join(replay.mismatches[:1])))
    finally:
        library.clear()
        library.update(saved)
    return swapped, changed


def _slots_named(read: dict, hand) -> dict:
    """The read ability with its target slots named as the hand-written one names them (scenarios name slots)."""
    names = dict(zip(read.get("targets", {}), hand.targets, strict=False))
    return card_readings._replace(read, names) if len(names) == len(hand.targets) else read


def _as_named(read: dict, card) -> dict:
    """A reading with the hand-written card's labels and slot names: neither is behaviour."""
    definition = _slots_named(read, card)
    for key in ("triggers", "activated"):
        hand = getattr(card, key)
        if hand and len(hand) == len(definition.get(key, [])):
            definition[key] = [
                {**_slots_named(a, h), "label": h.label} for a, h in zip(definition[key], hand, strict=True)
            ]
    return _labelled(definition, card.model_dump())


def _labelled(read, hand):
    """The labels of the hand-written card's nested instructions (a delayed ability's, a replacement's) on the
    reading's, where both say the same instruction in the same place: scenarios' logs name them."""
    if isinstance(read, dict) and isinstance(hand, dict):
        named = {k: _labelled(v, hand.get(k)) for k, v in read.items()}
        if hand.get("label") and "op" in read and read.get("op") == hand.get("op"):
            named["label"] = hand["label"]
        return named
    if isinstance(read, list) and isinstance(hand, list) and len(read) == len(hand):
        return [_labelled(r, h) for r, h in zip(read, hand, strict=True)]
    return read


@pytest.mark.parametrize("path", DISPUTES, ids=[p.stem for p in DISPUTES])
def test_a_dispute_per_template_family_with_real_read_cards(path, read_cards):
    assert replay_file(path).verdict == "match"
    scenario, _ = schema.load(path)
    assert scenario.rules.core >= "2026-06-18"  # judged under Core Rules 1.4
    for variant in scenario.variants:
        assert replay_variant(path, variant.id).verdict == "match"


def _deal_one_more(original):
    def mutant(m, ctx):
        found = original(m, ctx)
        return [
            {**i, "amount": i["amount"] + 1} if isinstance(i.get("amount"), int) else i for i in found or []
        ] or found

    return mutant


def _keyword_value_ignored(original):
    from scenarios.card_reader import keywords

    def mutant(text, card):
        rest = original(text, card)
        card["keywords"] = {k: 1 for k in card.get("keywords", {})}
        return rest

    return keywords, "keyword_prefix", mutant


def _everywhere(original):
    def mutant(m, ctx):
        found = original(m, ctx)
        return [{**i, "to": {"all": {"who": i["to"]["all"]["who"]}}} for i in found or []] or found

    return mutant


def _nothing_instead(original):
    def mutant(m, ctx):
        return [{**i, "instead": []} for i in original(m, ctx) or []] or None

    return mutant


def _token_might_one_less(original):
    def mutant(m, ctx):
        return [{**i, "might": i["might"] - 1} if "might" in i else i for i in original(m, ctx) or []] or None

    return mutant


def _token_not_exhausted(original):
    def mutant(m, ctx):
        return [{k: v for k, v in i.items() if k != "exhausted"} for i in original(m, ctx) or []] or None

    return mutant


@pytest.mark.parametrize(
    "mutant",
    [
        "deal one more",
        "keyword values ignored",
        "attack read as defend",
        "token might one less",
        "token not exhausted",
        "nothing instead",
        "an Equipment's I read as itself",
        "at a battlefield read as everywhere",
        "another read as any",
        "two choices in reverse order",
        "tag dropped",
        "a state of mine dropped",
        "once each turn dropped",
        "hunt gains one more XP",
        "level read one lower",
        "empowered read as always",
        "ambush not read",
        "flow cost read lower",
        "a permission to play there dropped",
    ],
)
def test_the_disputes_kill_a_mutant_of_each_template(mutant, real_db, monkeypatch):
    from scenarios.card_reader import abilities, paragraph

    if mutant == "deal one more":
        monkeypatch.setattr(
            effects,
            "TEMPLATES",
            [(f, p, _deal_one_more(b) if f == "deal" else b) for f, p, b in effects.TEMPLATES],
        )
    elif mutant == "an Equipment's I read as itself":
        import scenarios.card_reader as reader

        monkeypatch.setattr(abilities, "_ABOUT_ME", set())
        monkeypatch.setattr(reader, "_equipment", lambda definition: [])
    elif mutant == "at a battlefield read as everywhere":
        monkeypatch.setattr(
            effects,
            "TEMPLATES",
            [(f, p, _everywhere(b) if b.__name__ == "_deal_at_a_battlefield" else b) for f, p, b in effects.TEMPLATES],
        )
    elif mutant == "another read as any":
        from scenarios.card_reader import phrases

        monkeypatch.setattr(phrases, "another", lambda spec, ctx: spec.pop("another", True) or True)
    elif mutant == "a permission to play there dropped":
        read_static = abilities.read_static

        def no_permission(text, card, used):
            found = read_static(text, card, used)
            card.pop("played_to", None)
            return found

        for module in (abilities, paragraph):  # read_paragraph (paragraph.py) calls it too
            monkeypatch.setattr(module, "read_static", no_permission)
    elif mutant == "flow cost read lower":
        keyword_prefix = paragraph.keyword_prefix

        def cheaper_flow(text, card):
            rest = keyword_prefix(text, card)
            card["flow"] = [{**cost, "energy": max(0, cost.get("energy", 0) - 2)} for cost in card.get("flow", [])]
            return rest

        monkeypatch.setattr(paragraph, "keyword_prefix", cheaper_flow)
    elif mutant == "ambush not read":
        keyword_prefix = paragraph.keyword_prefix

        def no_ambush(text, card):
            rest = keyword_prefix(text, card)
            card.get("keywords", {}).pop("Ambush", None)
            return rest

        monkeypatch.setattr(paragraph, "keyword_prefix", no_ambush)
    elif mutant == "empowered read as always":
        read_level = paragraph.read_level

        def always(text, card, used):
            found = read_level(text, card, used)
            for ability in card.get("passives", []):
                if ability.get("condition") == "empowered":
                    del ability["condition"]
            return found

        monkeypatch.setattr(paragraph, "read_level", always)
    elif mutant == "level read one lower":
        read_level = paragraph.read_level

        def lower(text, card, used):
            found = read_level(text, card, used)
            for ability in card.get("passives", []) + card.get("triggers", []):
                word = ability.get("condition") or ""
                if word.startswith("level "):
                    ability["condition"] = f"level {int(word.split()[1]) - 1}"
            return found

        monkeypatch.setattr(paragraph, "read_level", lower)
    elif mutant == "hunt gains one more XP":
        keyword_prefix = paragraph.keyword_prefix

        def more_xp(text, card):
            rest = keyword_prefix(text, card)
            for trigger in card.get("triggers", []):
                trigger["effects"] = [{**e, "n": e["n"] + 1} if e["op"] == "gain_xp" else e for e in trigger["effects"]]
            return rest

        monkeypatch.setattr(paragraph, "keyword_prefix", more_xp)
    elif mutant == "once each turn dropped":
        read_trigger = abilities.read_trigger

        def unlimited(text, card, used, condition=None):
            found = read_trigger(text, card, used, condition)
            for trigger in card.get("triggers", []):
                trigger.pop("limit", None)
            return found

        for module in (abilities, paragraph):  # read_paragraph (paragraph.py) calls it too
            monkeypatch.setattr(module, "read_trigger", unlimited)
    elif mutant == "a state of mine dropped":
        monkeypatch.setattr(abilities, "_STATES", {state: [{}] for state in abilities._STATES})
    elif mutant == "tag dropped":
        from scenarios.card_reader import phrases

        untagged = phrases.untagged
        monkeypatch.setattr(phrases, "untagged", lambda phrase: (untagged(phrase)[0], None))
        monkeypatch.setattr(abilities, "untagged", lambda phrase: (untagged(phrase)[0], None))
    elif mutant == "two choices in reverse order":
        import re

        def reversed_choices(m, ctx):
            swapped = re.match(r"choose (?P<a>.+) and (?P<b>.+)", f"choose {m['b']} and {m['a']}")
            return effects._choose_two(swapped, ctx)

        monkeypatch.setattr(
            effects,
            "TEMPLATES",
            [(f, p, reversed_choices if b is effects._choose_two else b) for f, p, b in effects.TEMPLATES],
        )
    elif mutant == "nothing instead":
        monkeypatch.setattr(
            effects,
            "TEMPLATES",
            [(f, p, _nothing_instead(b) if f == "the next time it would" else b) for f, p, b in effects.TEMPLATES],
        )
    elif mutant.startswith("token"):
        change = _token_might_one_less if mutant == "token might one less" else _token_not_exhausted
        monkeypatch.setattr(
            effects, "TEMPLATES", [(f, p, change(b) if f == "play a token" else b) for f, p, b in effects.TEMPLATES]
        )
    elif mutant == "keyword values ignored":
        module, name, replacement = _keyword_value_ignored(paragraph.keyword_prefix)
        monkeypatch.setattr(paragraph, name, replacement)
    else:
        monkeypatch.setattr(
            abilities,
            "TRIGGERS",
            [
                (f, p, (lambda m, b=b: [{**e, "event": "defend"} if e["event"] == "attack" else e for e in b(m)]))
                for f, p, b in abilities.TRIGGERS
            ],
        )
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert "mismatch" in verdicts, f"the mutant {mutant!r} of the reader survives every read-card dispute"
