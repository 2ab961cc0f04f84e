"""The reader's Empower family (scenarios/card_reader/powers.py): triggers on becoming Empowered (441.2.a, 827.2.a),
"Disempower this" as a cost (442.1, 203.3) and the instructions empower / disempower; read-card disputes 281-299
judge them with the real read cards, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from read_cards import swap_reader

from rules_db import card_readings
from scenarios import schema
from scenarios.card_reader import CardText, abilities, effects, phrases, powers, read_card
from scenarios.cards import Card, use_read_cards
from scenarios.replay import replay_file, replay_variant

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-2[89]*.yaml")
    if 281 <= int(p.name.split("-")[1]) <= 299
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


# -- readings ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("When I become [Empowered], draw 1.", {"event": "empower", "who": "self"}),
        (
            "When you empower something else, empower me. (I become Empowered if I'm not already.)",
            {"event": "empower", "who": "other card", "by": "you"},
        ),
    ],
)
def test_becoming_empowered_reads_as_a_trigger_on_the_empower_event(text, when):
    reading = read(text, might=3)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == when
    Card.model_validate(reading.definition)


@pytest.mark.parametrize("who", ["this", "me"])
def test_disempower_before_the_colon_is_a_cost(who):
    reading = read(f"Disempower {who}, [1 Energy], [Exhaust]: Draw 1.", "Gear")
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["cost"] == {"disempower": "this", "energy": 1, "exhaust": "this"}
    assert ability["effects"] == [{"op": "draw", "n": 1}]
    assert "disempower this" in Card.model_validate(reading.definition).activated[0].cost.describe()


@pytest.mark.parametrize(
    ("text", "effects_", "targets"),
    [
        (
            "[Exhaust]: Empower another gear.",
            [{"op": "empower", "what": "unit"}],
            {"unit": {"type": "gear", "other": True}},
        ),
        ("[Exhaust]: Disempower a unit.", [{"op": "disempower", "what": "unit"}], {"unit": {"type": "unit"}}),
    ],
)
def test_empower_and_disempower_read_as_instructions(text, effects_, targets):
    reading = read(text, "Gear")
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["effects"] == effects_ and ability["targets"] == targets


@pytest.mark.parametrize("text", ["[Exhaust]: Empower your units.", "[Exhaust]: Empower a spell."])
def test_what_cannot_be_empowered_as_read_is_refused(text):
    """A group (the instruction takes objects one reference names) or a spell (not on the board, 441.2): unread."""
    assert read(text, "Gear").status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _read_all(real_db) -> dict:
    conn = sqlite3.connect(f"file:{real_db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    definitions = {}
    for row in conn.execute(card_readings._CARDS, ["riftbound"]):
        reading = read_card(card_readings.card_text(dict(row)))
        if reading.status == "read":
            definitions[row["name"]] = reading.definition
    conn.close()
    return definitions


def _verdicts(real_db) -> list[str]:
    use_read_cards(_read_all(real_db))
    try:
        verdicts = []
        for path in MINE:
            verdicts.append(replay_file(path).verdict)
            scenario, _ = schema.load(path)
            assert scenario.rules.core >= "2026-06-18"  # judged under Core Rules 1.4
            verdicts += [replay_variant(path, v.id).verdict for v in scenario.variants]
    finally:
        use_read_cards({})
    return verdicts


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 3
    assert set(_verdicts(real_db)) == {"match"}


TRIGGER_MUTANTS = {
    "becoming Empowered read as something else's": lambda e: {**e, "who": "other card", "by": "you"},
    "something else read as me": lambda e: {k: v for k, v in e.items() if k != "by"} | {"who": "self"},
}


@pytest.mark.parametrize("mutant", TRIGGER_MUTANTS)
def test_my_disputes_kill_a_mutant_of_each_trigger_condition(mutant, real_db, monkeypatch):
    change = TRIGGER_MUTANTS[mutant]
    family = {"becoming Empowered read as something else's": 0, "something else read as me": 1}[mutant]
    mine = powers.ADDED[family][0]
    patched = [
        (f, p, (lambda m, b=b: [change(dict(e)) for e in b(m)]) if f == mine else b) for f, p, b in abilities.TRIGGERS
    ]
    monkeypatch.setattr(abilities, "TRIGGERS", patched)
    assert "mismatch" in _verdicts(real_db), f"the mutant {mutant!r} survives every read-card dispute 281-299"


def test_my_disputes_kill_a_disempower_cost_read_as_free(real_db, monkeypatch):
    monkeypatch.setitem(phrases.COST_WORDS, "disempower this", {})
    monkeypatch.setitem(phrases.COST_WORDS, "disempower me", {})
    assert "mismatch" in _verdicts(real_db), "a disempower cost read as nothing survives every dispute 281-299"


def test_my_disputes_kill_an_empower_read_as_disempower(real_db, monkeypatch):
    def flipped(m, ctx):
        read = powers._empower(m, ctx)
        return read and [{**i, "op": {"empower": "disempower", "disempower": "empower"}[i["op"]]} for i in read]

    templates = [(f, p, flipped if b is powers._empower else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)
    assert "mismatch" in _verdicts(real_db), "an empower read as a disempower survives every dispute 281-299"


def test_an_empowered_deathknell_reads_as_a_deathknell_only_while_empowered():
    text = "[Empowered][>][>>][Deathknell][>] Draw 1. (When I die while Empowered, get the effect.)"
    reading = read(text, might=2)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "die", "who": "self"} and trigger["condition"] == "empowered"
    assert trigger["effects"] == [{"op": "draw", "n": 1}]
    assert read("[Empowered][>][>>][Deathknell][>] Frobnicate the moon.", might=2).status == "unread"


def test_my_disputes_kill_an_empowered_deathknell_read_as_always_on(real_db, monkeypatch):
    def always(text, card, used, around):
        read = powers.read_empowered_deathknell(text, card, used, around)
        if read:
            del card["triggers"][-1]["condition"]
        return read

    swap_reader(monkeypatch, powers.read_empowered_deathknell, always)
    assert "mismatch" in _verdicts(real_db), "an Empowered Deathknell read as always on survives disputes 281-299"


def test_an_empower_of_either_cost_reads_as_one_empower_ability_per_cost():
    reading = read("[Empower] — [1 Energy] or [Body rune] (Pay either cost: Empower me. Use only if not Empowered.)")
    assert reading.status == "read", reading.unread
    costs = [a["cost"] for a in reading.definition["activated"]]
    assert costs == [{"energy": 1}, {"domain_power": {"Body": 1}}]
    assert all(a["condition"] == "not empowered" for a in reading.definition["activated"])
    assert read("[Empower] — [1 Energy] or dance a jig").status == "unread"


def test_my_disputes_kill_an_either_cost_read_as_its_first_cost(real_db, monkeypatch):
    def first_only(text, card, used, around):
        read = powers.read_empower_either(text, card, used, around)
        if read:
            card["activated"].pop()
        return read

    swap_reader(monkeypatch, powers.read_empower_either, first_only)
    assert "mismatch" in _verdicts(real_db), "an Empower of either cost read as its first survives disputes 281-299"


def test_gained_xp_this_turn_reads_as_a_passive_under_its_condition():
    reading = read("If you've gained XP this turn, I have +1 [Might] and [Ganking].", might=4)
    assert reading.status == "read", reading.unread
    assert reading.definition["passives"] == [
        {"to": {"who": "self"}, "condition": "gained xp this turn", "might": 1, "keywords": {"Ganking": 1}}
    ]
    assert read("If you've gained XP this turn, I juggle.", might=4).status == "unread"


def test_my_disputes_kill_gained_xp_read_as_having_xp(real_db, monkeypatch):
    def having(text, card, used, around):
        read = powers.read_gained_xp_passive(text, card, used, around)
        if read:
            card["passives"][-1]["condition"] = "level 1"
        return read

    swap_reader(monkeypatch, powers.read_gained_xp_passive, having)
    assert "mismatch" in _verdicts(real_db), "gained XP read as having XP survives every dispute 281-299"


def test_a_passive_with_an_empowered_amount_reads_as_two_passives():
    text = "Your units have +1 [Might]. If I'm [Empowered], they have +2 [Might] instead."
    reading = read(text, "Gear")
    assert reading.status == "read", reading.unread
    assert reading.definition["passives"] == [
        {"to": {"who": "friendly unit"}, "might": 1, "condition": "not empowered"},
        {"to": {"who": "friendly unit"}, "might": 2, "condition": "empowered"},
    ]


def test_my_disputes_kill_an_empowered_amount_added_not_instead(real_db, monkeypatch):
    def added(text, card, used, around):
        read = powers.read_empowered_instead_passive(text, card, used, around)
        if read:
            del card["passives"][-2]["condition"]
        return read

    swap_reader(monkeypatch, powers.read_empowered_instead_passive, added)
    assert "mismatch" in _verdicts(real_db), "an Empowered amount added, not instead, survives disputes 281-299"


def test_an_empower_paid_by_killing_a_friendly_unit_reads_as_that_cost():
    reading = read("[Empower] — Kill a friendly unit (Pay the cost: Empower me. Use only if not Empowered.)", might=3)
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["cost"] == {"kill_friendly": "unit"} and ability["condition"] == "not empowered"
    assert "kill a friendly unit" in Card.model_validate(reading.definition).activated[0].cost.describe()


def test_my_disputes_kill_a_friendly_kill_read_as_killing_this(real_db, monkeypatch):
    monkeypatch.setitem(phrases.COST_WORDS, "kill a friendly unit", {"kill": "this"})
    assert "mismatch" in _verdicts(real_db), "a friendly kill read as killing this survives disputes 281-299"


@pytest.mark.parametrize(
    ("text", "cost"),
    [
        ("[Equip] — [Order rune], Kill a friendly unit", {"domain_power": {"Order": 1}, "kill_friendly": "unit"}),
        ("[Equip] — Spend 1 XP (Pay the cost: Attach this to a unit you control.)", {"spend_xp": 1}),
    ],
)
def test_equip_with_a_cost_of_words_reads_as_the_equip_ability(text, cost):
    reading = read_card(CardText("Some Card", "Gear", text, tags=("Equipment",), might_bonus=2))
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["equip"] is True and ability["cost"] == cost
    assert ability["effects"] == [{"op": "attach", "what": "this", "to": "unit"}]
    assert reading.definition["keywords"] == {"Equip": 1}


def test_my_disputes_kill_an_equip_cost_read_without_its_words(real_db, monkeypatch):
    def icons_only(text, card, used, around):
        read = powers.read_equip_cost(text, card, used, around)
        if read:
            card["activated"][-1]["cost"].pop("kill_friendly", None)
        return read

    swap_reader(monkeypatch, powers.read_equip_cost, icons_only)
    assert "mismatch" in _verdicts(real_db), "an Equip cost without its kill survives every dispute 281-299"


@pytest.mark.parametrize(
    ("text", "add"),
    [
        ("[Exhaust]: [Reaction] — [Add] [2 Energy]. Use only to play spells.", {"op": "add", "energy": 2}),
        ("[Exhaust]: [Reaction] — [Add] [Any rune]. Use only to play spells.", {"op": "add", "power": 1}),
        (
            "[Exhaust]: [Reaction] — [Add] [Any rune]. Use only to play gear or use gear abilities.",
            {"op": "add", "power": 1, "only": "gear"},
        ),
        (
            "[Exhaust]: [Add] [2 Energy]. Spend this Energy only to play units or activated abilities of units.",
            {"op": "add", "energy": 2, "only": "units"},
        ),
        (
            "[Reaction][>] [Exhaust]: [Add] [1 Energy]. Spend this Energy only during showdowns.",
            {"op": "add", "energy": 1, "only": "showdowns"},
        ),
    ],
)
def test_an_add_used_only_to_play_spells_reads_as_a_restricted_add(text, add):
    reading = read(text, might=2)
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["effects"] == [{"only": "spells", **add}]
    assert Card.model_validate(reading.definition).activated[0].adds  # still an Add: resolves at once (429.2)
    assert read("[Exhaust]: Draw 1. Use only to play spells.", might=2).status == "unread"


def test_my_disputes_kill_a_restricted_add_read_as_a_plain_add(real_db, monkeypatch):
    monkeypatch.setattr(abilities, "INSTEAD", [r if r is not powers._use_only else _plain for r in abilities.INSTEAD])
    assert "mismatch" in _verdicts(real_db), "a restricted Add read as a plain one survives every dispute 281-299"


def _plain(sentence, before, ctx, used):
    read = powers._use_only(sentence, before, ctx, used)
    return read and [{k: v for k, v in i.items() if k != "only"} for i in read]


def test_my_disputes_kill_every_restriction_read_as_spells(real_db, monkeypatch):
    monkeypatch.setattr(powers, "_USE_ONLY", dict.fromkeys(powers._USE_ONLY, "spells"))
    assert "mismatch" in _verdicts(real_db), "every restriction read as spells survives every dispute 281-299"


def test_you_may_spend_xp_to_reads_as_an_optional_trigger_with_that_cost():
    reading = read("When I attack, you may spend 3 XP to draw 1.", might=5)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["optional"] is True and trigger["cost"] == {"spend_xp": 3}
    assert trigger["effects"] == [{"op": "draw", "n": 1}]


def test_my_disputes_kill_an_xp_cost_read_as_a_discard(real_db, monkeypatch):
    monkeypatch.setitem(phrases._COUNTED, "spend xp", "discard")
    assert "mismatch" in _verdicts(real_db), "an XP cost read as a discard survives every dispute 281-299"
