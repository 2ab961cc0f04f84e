"""The reader's family of entering and trigger conditions (scenarios/card_reader/entering.py, triggers.py): how a
permanent enters the board (369.3, 364.3.a) and the trigger conditions it adds; read-card disputes 181-199 judge
them with the real read cards, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, swap_reader, verdicts_with

from scenarios.card_reader import CardText, effects, entering, read_card
from scenarios.cards import Card, use_read_cards
from scenarios.state import GameState

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-1[89]*.yaml")
    if 181 <= int(p.name.split("-")[1]) <= 199
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


# -- entering ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "who", "condition"),
    [
        ("I enter ready if you control another Mech.", "self", "you control another Mech"),
        ("I enter ready if you have two or fewer cards in your hand.", "self", "2 or fewer cards in hand"),
        ("I enter ready if an opponent controls a battlefield.", "self", "an opponent controls a battlefield"),
        (
            "I enter ready if you have two or more other units in your base.",
            "self",
            "2 or more other units in your base",
        ),
        ("I enter ready if you have a card with my name in your trash.", "self", "a card with my name in your trash"),
        ("[Level 3][>] I enter ready. (While you have 3+ XP, get the effect.)", "self", "level 3"),
        ("Other friendly units enter ready.", "other friendly unit", None),
        ("Your tokens enter ready.", "friendly token", None),
    ],
)
def test_entering_ready_reads_as_a_replacement_of_entering_exhausted(text, who, condition):
    reading = read(text, might=3)
    assert reading.status == "read", reading.unread
    (replacement,) = reading.definition["replacements"]
    assert replacement["would"] == "enter_exhausted" and replacement["instead"] == []
    assert replacement["to"] == {"who": who}
    assert replacement.get("condition") == condition
    Card.model_validate(reading.definition)


def test_a_gear_entering_exhausted_replaces_its_entering_ready():
    (replacement,) = read("This enters exhausted.", "Gear").definition["replacements"]
    assert replacement["would"] == "enter_ready" and replacement["to"] == {"who": "self"}
    assert read("This enters exhausted.", "Spell").status == "unread"


def test_a_level_gives_might_and_entering_ready_together():
    definition = read("[Level 3][>] I have +1 [Might] and enter ready.", might=3).definition
    assert definition["passives"] == [{"to": {"who": "self"}, "condition": "level 3", "might": 1}]
    assert definition["replacements"][0]["condition"] == "level 3"


@pytest.mark.parametrize(
    ("text", "once"),
    [
        ("Units you play this turn enter ready. Draw 1.", False),
        ("Friendly units enter ready this turn.", False),
        ("The next unit you play this turn enters ready.", True),
    ],
)
def test_a_spell_makes_units_enter_ready_for_the_turn(text, once):
    effect = read(text, "Spell").definition["effects"][0]
    assert effect == {
        "op": "replace_next",
        "would": "enter_exhausted",
        "to": {"who": "friendly unit"},
        "once": once,
        "instead": [],
    }


@pytest.mark.parametrize(
    "text",
    [
        "I enter ready if you control a battlefield with a dragon.",  # a condition not known
        "If your score is not within 3 points of the Victory Score, I enter ready.",
        "Enemy units enter ready.",
    ],
)
def test_entering_with_words_not_understood_is_refused(text):
    assert read(text, might=2).status == "unread"


def _game(a_hand, a_base=(), b_base=(), battlefields=(), xp=0):
    setup = {
        "rules": {"core": "2026-06-18"},
        "turn": {"player": "A"},
        "players": {
            "A": {"hand": list(a_hand), "base": list(a_base), "xp": xp},
            "B": {"base": list(b_base)},
        },
        "battlefields": list(battlefields),
    }
    return GameState(setup)


@pytest.fixture
def entering_cards():
    texts = {
        "Mech Twin": ("I enter ready if you control another Mech.", ("Mech",)),
        "Mechanic": ("", ("Mech",)),
        "Soldier": ("[Level 3][>] I enter ready.", ()),
        "Wurm": ("Other friendly units enter ready.", ()),
        "Ballista": ("This enters exhausted.", ()),
        "Master": ("[Level 6][>] Your units have +1 [Might].\n[Level 11][>] Your units enter ready.", ()),
    }
    definitions = {}
    for name, (text, tags) in texts.items():
        kind = {"Ballista": "Gear", "Master": "Legend"}.get(name, "Unit")
        reading = read_card(CardText(name, kind, text, energy=0, might=2 if kind == "Unit" else None, tags=tags))
        assert reading.status == "read", reading.unread
        definitions[name] = {**reading.definition, "real": None, "made_up": True}
    use_read_cards(definitions)
    yield
    use_read_cards({})


def test_a_conditional_entering_is_decided_as_the_unit_enters(entering_cards):
    game = _game([{"id": "twin", "card": "Mech Twin"}], a_base=[{"id": "m", "card": "Mechanic"}])
    game.push({"by": "A", "do": "play", "card": "twin"})
    assert game.obj("twin").exhausted is False
    game = _game([{"id": "twin", "card": "Mech Twin"}], b_base=[{"id": "m", "card": "Mechanic"}])
    game.push({"by": "A", "do": "play", "card": "twin"})
    assert game.obj("twin").exhausted is True  # B's Mech is not A's


def test_a_level_entering_ready_holds_from_that_much_xp(entering_cards):
    for xp, exhausted in ((3, False), (2, True)):
        game = _game([{"id": "s", "card": "Soldier"}], xp=xp)
        game.push({"by": "A", "do": "play", "card": "s"})
        assert game.obj("s").exhausted is exhausted


def test_entering_ready_is_a_replacement_step_never_a_ready_afterwards(entering_cards):
    game = _game([{"id": "u", "card": "Mechanic"}], a_base=[{"id": "w", "card": "Wurm"}])
    game.push({"by": "A", "do": "play", "card": "u"})
    summaries = [step.summary for root in game.trace.tree(len(game.trace.records)) for _, step in root.walk()]
    assert "Wurm replaces the event: u would enter the board exhausted" in summaries
    assert "u enters the board at base ready" in summaries
    assert not any(s.startswith("ready ") for s in summaries)  # 805.6: it does not become ready


@pytest.mark.parametrize(("xp", "might", "exhausted"), [(11, 3, False), (10, 3, True), (5, 2, True)])
def test_a_legends_level_passives_apply_to_your_units(entering_cards, xp, might, exhausted):
    setup = {
        "rules": {"core": "2026-06-18"},
        "turn": {"player": "A"},
        "players": {
            "A": {"legend": {"id": "yi", "card": "Master"}, "hand": [{"id": "u", "card": "Mechanic"}], "xp": xp},
            "B": {},
        },
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "u"})
    assert game.obj("u").exhausted is exhausted
    from scenarios.kernel import calc

    assert calc.might(game, game.obj("u")) == might


def test_a_gear_that_enters_exhausted(entering_cards):
    game = _game([{"id": "b", "card": "Ballista"}])
    game.push({"by": "A", "do": "play", "card": "b"})
    assert game.obj("b").exhausted is True


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(real_db) -> list[str]:
    return verdicts_with(read_every_card(real_db), MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 4
    assert all(yaml.safe_load(path.read_text())["rules"]["core"] >= "2026-06-18" for path in MINE)  # Core Rules 1.4
    assert set(_verdicts(real_db)) == {"match"}


def _entering_mutant(change):
    def mutant(text, card, used, around):
        found = entering.read_entering(text, card, used, around)
        for replacement in card.get("replacements", []):
            change(replacement)
        return found

    return mutant


ENTERING_MUTANTS = {
    "entering condition dropped": lambda r: r.pop("condition", None),
    "other friendly read as any unit": lambda r: r["to"].update(who="unit") if r["to"]["who"] != "self" else None,
    "entering exhausted dropped": lambda r: r.update(would="enter_exhausted"),
}


def _level_passive_without_its_condition(text, card, used, around):
    found = entering.read_conditional_passive(text, card, used, around)
    for passive in card.get("passives", []):
        passive.pop("condition", None)
    return found


@pytest.mark.parametrize(
    "mutant", [*ENTERING_MUTANTS, "a turn's entering ready read as once", "a level passive always on"]
)
def test_my_disputes_kill_a_mutant_of_each_reading(mutant, real_db, monkeypatch):

    if mutant in ENTERING_MUTANTS:
        swap_reader(monkeypatch, entering.read_entering, _entering_mutant(ENTERING_MUTANTS[mutant]))
    elif mutant == "a level passive always on":
        swap_reader(monkeypatch, entering.read_conditional_passive, _level_passive_without_its_condition)
    else:

        def once(m, ctx):
            return [{**i, "once": True} for i in entering._enter_ready_this_turn(m, ctx)]

        templates = [(f, p, once if b is entering._enter_ready_this_turn else b) for f, p, b in effects.TEMPLATES]
        monkeypatch.setattr(effects, "TEMPLATES", templates)
    assert "mismatch" in _verdicts(real_db), f"the mutant {mutant!r} survives every read-card dispute 181-199"


# -- trigger conditions -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "events"),
    [
        ("When you stun an enemy unit", [{"event": "stun", "who": "enemy unit", "by": "you"}]),
        ("When you [Stun] a unit", [{"event": "stun", "who": "unit", "by": "you"}]),
        ("When you buff a friendly unit", [{"event": "buff", "who": "friendly unit", "by": "you"}]),
        ("When you buff me", [{"event": "buff", "who": "self", "by": "you"}]),
        ("When you ready a friendly unit", [{"event": "ready", "who": "friendly unit", "by": "you"}]),
        ("When I become ready", [{"event": "ready", "who": "self"}]),
        ("When you choose me with a spell", [{"event": "choose", "who": "self", "by": "you", "via": "spell"}]),
        (
            "When you choose or ready me",
            [{"event": "choose", "who": "self", "by": "you"}, {"event": "ready", "who": "self", "by": "you"}],
        ),
        ("When you attach an Equipment to me", [{"event": "attach_equipment", "who": "self", "by": "you"}]),
        ("When I move from a battlefield", [{"event": "move_from", "who": "self", "where": "battlefield"}]),
        ("When I move from a location", [{"event": "move_from", "who": "self"}]),
        ("When a unit moves from here", [{"event": "move_from", "who": "unit", "where": "here"}]),
        ("When I win a combat", [{"event": "win_combat", "who": "self"}]),
        ("When you hide a card", [{"event": "hide", "who": "you"}]),
        ("When you stun one or more enemy units", [{"event": "stun_some", "who": "enemy unit", "by": "you"}]),
        ("When you win a combat", [{"event": "win_combat", "who": "you"}]),
    ],
)
def test_trigger_conditions_of_state_changes_read_into_their_events(head, events):
    reading = read(f"{head}, draw 1.", might=2)
    assert reading.status == "read", reading.unread
    assert [t["when"] for t in reading.definition["triggers"]] == events
    Card.model_validate(reading.definition)


@pytest.mark.parametrize(
    ("head", "event"),
    [
        ("When you play a card from face down", {"card_type": "card", "from_hidden": True}),
        ("When you play a card from [Hidden]", {"card_type": "card", "from_hidden": True}),
        ("When you play a spell that costs [5 Energy] or more", {"card_type": "spell", "min_energy": 5}),
        ("When you play a card with Power cost [Any rune][Any rune] or more", {"card_type": "card", "min_power": 2}),
    ],
)
def test_what_a_card_played_was_is_read_into_the_event(head, event):
    (trigger,) = read(f"{head}, draw 1.", might=2).definition["triggers"]
    assert trigger["when"] == {"event": "card_played", "who": "you", **event}


def test_a_ready_in_the_awaken_phase_is_the_turn_players(entering_cards):
    from scenarios.card_reader import read_card as reader

    feline = reader(CardText("Feline", "Unit", "When I become ready, give me +2 [Might] this turn.", might=5))
    use_read_cards({"Feline": {**feline.definition, "real": None, "made_up": True}})
    game = GameState(
        {
            "rules": {"core": "2026-06-18"},
            "turn": {"player": "B"},
            "players": {"A": {"base": [{"id": "f", "card": "Feline", "exhausted": True}]}, "B": {}},
        }
    )
    game.push({"by": "B", "do": "end_turn"})
    assert game.obj("f").exhausted is False
    triggered = [step.summary for root in game.trace.tree(len(game.trace.records)) for _, step in root.walk()]
    assert any("Feline: When I become ready" in s and "triggers" in s for s in triggered)


TRIGGER_MUTANTS = {
    "the side of a stunned unit flipped": lambda e: {**e, "who": "friendly unit"} if e["event"] == "stun" else e,
    "moving from read as moving to": lambda e: {**e, "event": "move"} if e["event"] == "move_from" else e,
    "chosen by anyone": lambda e: {k: v for k, v in e.items() if k != "by"} if e["event"] == "choose" else e,
    "a printed cost threshold one higher": lambda e: (
        {**e, "min_energy": e["min_energy"] + 1} if "min_energy" in e else e
    ),
    "played from facedown dropped": lambda e: {k: v for k, v in e.items() if k != "from_hidden"},
    "a combat won read as a conquest": lambda e: {**e, "event": "conquer"} if e["event"] == "win_combat" else e,
    "a hiding by anyone": lambda e: {**e, "who": "player"} if e["event"] == "hide" else e,
}


@pytest.mark.parametrize("mutant", TRIGGER_MUTANTS)
def test_my_disputes_kill_a_mutant_of_each_trigger_condition(mutant, real_db, monkeypatch):
    from scenarios.card_reader import abilities, triggers

    change = TRIGGER_MUTANTS[mutant]
    mine = {family for family, _, _ in triggers.ADDED}
    patched = [
        (f, p, (lambda m, b=b: [change(dict(e)) for e in b(m)]) if f in mine else b) for f, p, b in abilities.TRIGGERS
    ]
    monkeypatch.setattr(abilities, "TRIGGERS", patched)
    assert "mismatch" in _verdicts(real_db), f"the mutant {mutant!r} survives every read-card dispute 181-199"


# -- "... instead" ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "condition"),
    [
        (
            "Deal 2 to a unit at a battlefield. If you control a facedown card, deal 4 to it instead.",
            "Spell",
            "you control a facedown card",
        ),
        ("[Deathknell][>] Draw 1. If it's your Beginning Phase, draw 2 instead.", "Unit", "your beginning phase"),
        ("Give a unit +1 [Might] this turn.\n[Level 6][>] Give it +3 [Might] this turn instead.", "Spell", "level 6"),
    ],
)
def test_a_sentence_instead_of_the_one_before_is_one_conditional_instruction(text, kind, condition):
    reading = read(text, kind, might=2)
    assert reading.status == "read", reading.unread
    effects = reading.definition["effects"] if kind == "Spell" else reading.definition["triggers"][0]["effects"]
    (conditional,) = effects
    assert conditional["op"] == "if" and conditional["condition"] == condition
    assert conditional["then"] and conditional["else"] and conditional["then"] != conditional["else"]


def test_an_add_instead_still_adds_at_once():
    text = "[Reaction][>] [Exhaust]: [Add] [1 Energy]. If this is [Empowered], [Add] [2 Energy] instead."
    (ability,) = read(text, "Gear").definition["activated"]
    assert ability["effects"] == [
        {
            "op": "if",
            "condition": "empowered",
            "then": [{"op": "add", "energy": 2}],
            "else": [{"op": "add", "energy": 1}],
        }
    ]
    assert Card.model_validate(read(text, "Gear").definition).activated[0].adds  # 400.2, 429.2


@pytest.mark.parametrize(
    "text",
    [
        "Deal 2 to a unit at a battlefield. If it's exhausted, deal 4 to it instead.",  # a state not said
        "If you control a facedown card, draw 2 instead.",  # nothing before it to replace
        "Draw 1. If you control a facedown card, deal 4 to an enemy unit instead.",  # a choice of its own
    ],
)
def test_an_instead_not_understood_is_refused(text):
    assert read(text, "Spell").status == "unread"


def test_my_disputes_kill_an_instead_with_its_branches_swapped(real_db, monkeypatch):
    from scenarios.card_reader import abilities, instead

    def swapped(sentence, before, ctx, used):
        found = instead.read_instead(sentence, before, ctx, used)
        return [{**i, "then": i["else"], "else": i["then"]} for i in found] if found else found

    monkeypatch.setattr(abilities, "INSTEAD", [swapped])
    assert "mismatch" in _verdicts(real_db)


def test_the_reminder_of_winning_a_combat_restates_it():
    reading = read("When you win a combat, draw 1. (You win if only your units remain after combat.)", "Legend")
    assert reading.status == "read", reading.unread
    assert read("When you conquer, draw 1. (You win if only your units remain after combat.)").status == "unread"


def test_legion_inside_an_ability_is_a_condition_on_its_instructions():
    text = "[Exhaust]: [Legion] — The next unit you play this turn enters ready. (Get the effect if you've played another card this turn.)"
    reading = read(text, "Gear")
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    (conditional,) = ability["effects"]
    assert conditional["op"] == "if" and conditional["condition"] == "legion"
    assert conditional["then"][0]["op"] == "replace_next" and conditional["then"][0]["once"] is True


def test_my_disputes_kill_a_legion_read_as_always(real_db, monkeypatch):
    from scenarios.card_reader import instead

    def always(m, ctx):
        return instead._legion_instructions(m, ctx)[0]["then"]

    templates = [(f, p, always if b is instead._legion_instructions else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)
    assert "mismatch" in _verdicts(real_db)


def _stun_all(dawn_text: str) -> list[str]:
    """What triggered as A's "Stun all enemy units." stuns B's two units, with a legend of `dawn_text`."""
    texts = {
        "Dawn": ("Legend", dawn_text),
        "Storm": ("Spell", "Stun all enemy units."),
        "Soldier": ("Unit", ""),
    }
    definitions = {}
    for name, (kind, text) in texts.items():
        reading = read_card(CardText(name, kind, text, might=2 if kind == "Unit" else None))
        assert reading.status == "read", reading.unread
        definitions[name] = {**reading.definition, "real": None, "made_up": True}
    use_read_cards(definitions)
    try:
        game = GameState(
            {
                "rules": {"core": "2026-06-18"},
                "turn": {"player": "A"},
                "players": {
                    "A": {"legend": {"id": "dawn", "card": "Dawn"}, "hand": [{"id": "storm", "card": "Storm"}]},
                    "B": {"base": [{"id": "b1", "card": "Soldier"}, {"id": "b2", "card": "Soldier"}]},
                },
            }
        )
        game.push({"by": "A", "do": "play", "card": "storm"})
        game.push({"by": "A", "do": "pass"})
        game.push({"by": "B", "do": "pass"})
        assert game.obj("b1").stunned and game.obj("b2").stunned
        pending = game.pending
        if pending is not None:  # several triggered at once: their controller orders them first (383.3.d)
            assert pending.kind == "order"
            return list(pending.options)
        return [str(entry) for entry in game.log.get("triggered", [])]
    finally:
        use_read_cards({})


def test_stunning_one_or_more_units_triggers_once_for_the_effect():
    once = _stun_all("When you stun one or more enemy units, draw 1.")
    assert len(once) == 1 and "one or more" in once[0]
    each = _stun_all("When you stun an enemy unit, draw 1.")  # each unit stunned: an event of its own
    assert len(each) == 2


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Deal 2 to a unit at a battlefield. If it's attacking, deal 4 to it instead.", "attacking"),
        ("Give a unit +2 [Might] this turn. If it's [Empowered], give it +4 [Might] this turn instead.", "empowered"),
    ],
)
def test_the_state_of_the_unit_chosen_is_a_condition_on_it(text, state):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    (conditional,) = reading.definition["effects"]
    assert conditional["op"] == "if_it" and conditional["it"] == "target" and conditional["state"] == state
    Card.model_validate(reading.definition)


def test_my_disputes_kill_a_state_read_as_another(real_db, monkeypatch):
    from scenarios.card_reader import abilities, instead

    def other_state(sentence, before, ctx, used):
        found = instead.read_instead(sentence, before, ctx, used)
        return [{**i, "state": "stunned"} if i["op"] == "if_it" else i for i in found] if found else found

    monkeypatch.setattr(abilities, "INSTEAD", [other_state])
    assert "mismatch" in _verdicts(real_db)
