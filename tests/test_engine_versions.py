"""The engine judges under the Core Rules version a game names: one table of the behaviours the versions
disagree on (scenarios/versions.py), read by the rule modules, cited in the version that says it."""

from __future__ import annotations

import dataclasses

import pytest

from scenarios import kernel, versions
from scenarios.state import GameState

PLAYED = "cards_played_as_checked"
SETUP = {"turn": {"player": "A"}, "players": {"A": {}, "B": {}}}


def test_a_game_reads_each_behaviour_under_the_version_it_is_judged_under():
    older, newer = GameState(SETUP), GameState(SETUP, rules_version="2026-06-18")
    assert older.rules_version == kernel.DEFAULT_VERSION and older.reading(PLAYED).choice == "completed"
    assert newer.reading(PLAYED).choice == "finalized"
    assert newer.reading(PLAYED).cited == (
        "419.4.b",  # the engine's own numbers (1.4) stay plain
        "812.1.c",
        "faq:2026-08-14#q13",  # an official FAQ's entry is cited as it is, in any version
        "faq:2026-08-14#q18",
    )
    assert older.reading(PLAYED).cited == ("412.1.b@2025-12-01", "738.1.c.1@2025-12-01")


def test_a_version_the_engine_does_not_know_is_read_as_the_newest_known_before_it():
    behaviour = versions.BEHAVIOURS[PLAYED]
    assert behaviour.under("2027-03-01").version == "2026-06-18"
    assert behaviour.under("2026-01-15").version == "2025-12-01"
    assert behaviour.under("2024-01-01").version == versions.KNOWN_VERSIONS[0]


def test_a_behaviour_must_read_every_known_version_and_cite_a_rule_in_each():
    behaviour = versions.BEHAVIOURS[PLAYED]
    with pytest.raises(kernel.EngineError, match="one reading per known version"):
        dataclasses.replace(behaviour, readings=behaviour.readings[1:])
    emptied = (dataclasses.replace(behaviour.readings[0], rules=()), *behaviour.readings[1:])
    with pytest.raises(kernel.EngineError, match="cites the rules"):
        dataclasses.replace(behaviour, readings=emptied)


def test_a_game_keeps_its_version_through_plain_data():
    game = GameState(SETUP, rules_version="2026-06-18")
    assert GameState.from_dict(game.to_dict()).rules_version == "2026-06-18"


def test_a_number_cited_in_its_own_version_is_kept_there_and_translated_elsewhere(real_db):
    import sqlite_utils

    from rules_db.replays import CitationTranslator

    db = sqlite_utils.Database(real_db)
    into_older = CitationTranslator(db, "riftbound", kernel.RULES_VERSION, "2025-12-01")
    assert into_older(["425.1.b", "738.1.c.1@2025-12-01"]) == ["412.1.b", "738.1.c.1"]
    into_oldest = CitationTranslator(db, "riftbound", kernel.RULES_VERSION, "2025-06-02")
    # 425.1.b of 1.4 ("not considered to have been played") is 412.1.b of 2025-12-01 and 601.1.b of 2025-06-02
    assert into_oldest(["425.1.b"]) == ["601.1.b"]
    assert into_oldest(["412.1.b@2025-12-01"]) == ["601.1.b"]
    # a number cited in a version the database does not hold has no counterpart: dropped, the build goes on
    assert into_older(["425.1.b", "101@1999-01-01"]) == ["412.1.b"]
    assert CitationTranslator(db, "riftbound", "2025-06-02", "2025-06-02")(["601.1.b"]) == ["601.1.b"]


def test_an_ancestors_stand_in_never_sits_beside_a_rule_with_its_counterpart(real_db):
    """The combat damage step's "no damage" cites 465.1 (new in 1.4) and, for the 2025-12-01 rules, 443.1.a of
    2025-12-01. Judged under 1.4, 443.1.a has no counterpart of its own: the step shows 465.1 alone, on the
    pages as in the stored replays, not 443.1.a's ancestor's counterpart (465.2, which says something else)."""
    import sqlite3

    import sqlite_utils

    from rules_db.queries.replays import cited_rules, step_citations
    from rules_db.replays import CitationTranslator

    step = ["465.1", "443.1.a@2025-12-01"]
    own = CitationTranslator(sqlite_utils.Database(real_db), "riftbound", kernel.RULES_VERSION, kernel.RULES_VERSION)
    assert own.direct("443.1.a@2025-12-01") is None and own(step) == ["465.1"]
    conn = sqlite3.connect(real_db)
    cited = cited_rules(conn, "riftbound", kernel.RULES_VERSION, kernel.RULES_VERSION, step)
    assert [row["stand_in"] for row in cited["443.1.a@2025-12-01"]] == [True]  # alone, it is still placed
    assert [row["number"] for row in step_citations(cited, step)] == ["465.1"]
    assert [row["number"] for row in step_citations(cited, step[1:])] == [cited["443.1.a@2025-12-01"][0]["number"]]
    older = cited_rules(conn, "riftbound", kernel.RULES_VERSION, "2025-12-01", step)
    assert [row["number"] for row in step_citations(older, step)] == ["443.1.a"]  # 465.1 has none of its own there


def test_a_translator_for_another_version_reads_through_the_connection_lent_to_its_maker(real_db):
    """A server lends its kept translator to one request at a time, each with its own connection: the
    translator it made for numbers cited in 2025-12-01 must read through the connection lent now, not the first."""
    import sqlite3

    from rules_db.queries.equivalents import lent_translator

    first = sqlite3.connect(real_db)
    with lent_translator(first, "riftbound", kernel.RULES_VERSION, "2025-06-02") as translate:
        assert translate(["412.1.b@2025-12-01"]) == ["601.1.b"]
        inner = translate.from_others["2025-12-01"]
    first.close()
    second = sqlite3.connect(real_db)
    with lent_translator(second, "riftbound", kernel.RULES_VERSION, "2025-06-02") as translate:
        assert translate.from_others["2025-12-01"] is inner
        assert translate(["738.1.c.1@2025-12-01"]) == [translate.nearest("738.1.c.1@2025-12-01")]
        assert inner.db.conn is second
        with pytest.raises(AttributeError, match="reads through the translator that made it"):
            inner.db = translate.db
    second.close()


@pytest.mark.parametrize("rules_version", [kernel.DEFAULT_VERSION, kernel.RULES_VERSION])
def test_a_token_played_is_no_card_played_or_finalized(rules_version):
    """Tokens are played like cards (179.1.a) but are not cards (179): neither count of a player's cards this
    turn (Legion's "a card", 812.1.c and 738.1.c) takes one in, while a card played is in both."""
    from scenarios.rules.playing import card_finalized, card_played

    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"base": [{"id": "sprite", "card": "Sprite"}, {"id": "u1", "card": "Test Unit"}]}, "B": {}},
    }
    game = GameState(setup, rules_version=rules_version)
    player = game.players["A"]
    for object_id in ("sprite", "u1"):
        card_finalized(game, game.objects[object_id], "A")
        card_played(game, game.objects[object_id], "A")
    assert (player.cards_finalized_this_turn, player.finalized_this_turn) == (1, ("u1",))
    assert (player.cards_played_this_turn, player.played_this_turn) == (1, ("u1",))


def test_the_board_speaks_the_words_of_the_version_judged_under():
    """1.4 calls the phase the turn player acts in the Main Phase (316); 2025-12-01 called it the Action Phase."""
    from scenarios.board import snapshot

    assert snapshot(GameState(SETUP, rules_version="2026-06-18"))["turn"]["phase"] == "main"
    assert snapshot(GameState(SETUP, rules_version="2025-12-01"))["turn"]["phase"] == "action"
    assert snapshot(GameState(SETUP, rules_version="2025-06-02"))["turn"]["phase"] == "action"
    assert snapshot(GameState(SETUP, rules_version="2027-01-01"))["turn"]["phase"] == "main"


def test_the_steps_speak_the_words_of_the_version_judged_under():
    """1.4 calls the chain a combat's attack and defend triggers make the Combat Chain (464.2.e); 2025-12-01 the
    Initial Chain. A step's words follow the version its game is judged under."""
    assert versions.word("combat chain", "2026-06-18") == "combat chain"
    assert versions.word("combat chain", "2025-12-01") == "initial chain"
    assert versions.word("unrenamed", "2025-12-01") == "unrenamed"
    setup = {"turn": {"player": "A"}, "players": {"A": {}, "B": {}}}
    assert GameState(setup, rules_version="2025-12-01").word("combat chain") == "initial chain"


def test_every_behaviour_a_registry_reads_is_one_the_versions_define():
    """Conditions and keyword abilities name the behaviour they read as data (mypy sees a plain string there):
    each must be a `BehaviourName` that `BEHAVIOURS` defines."""
    import typing

    import scenarios.rules  # noqa: F401  (registers every rule module)

    named = {reads for _, _, reads in kernel.CONDITIONS.values() if reads}
    named |= {ability.reads for ability in kernel.KEYWORD_ABILITIES.values() if getattr(ability, "reads", None)}
    assert named, "no registry reads a behaviour: the check checks nothing"
    assert named <= set(typing.get_args(versions.BehaviourName)) == set(versions.BEHAVIOURS)


def test_a_reading_names_each_rule_its_steps_cite_alone_by_its_role():
    removed = versions.BEHAVIOURS["contested_without_its_contester"].under("2026-06-18")
    assert removed.rule("lifted") == versions.versioned("323.11", "2026-06-18")
    assert removed.rule("contested_by_the_other") == versions.versioned("323.11.a", "2026-06-18")
    with pytest.raises(kernel.EngineError, match="names no rule for 'kept'"):
        removed.rule("kept")
    behaviour = versions.BEHAVIOURS["contested_without_its_contester"]
    stray = dataclasses.replace(behaviour.readings[-1], roles=(("lifted", "999.9"),))
    with pytest.raises(kernel.EngineError, match="not a rule it cites"):
        dataclasses.replace(behaviour, readings=(*behaviour.readings[:-1], stray))


def test_two_passive_decreases_that_read_alike_are_snapshotted_one_after_the_other(monkeypatch):
    """A card with two identical limited passives (-2, to a minimum of 1) on a 4-Might unit: under 2025-12-01 each
    limit is snapshotted as it begins to apply, the first at -2 and the second, applied after it, at -1 (not a
    second -2, nor one snapshot for both): 1 Might, as when recomputed under 1.4."""
    from scenarios import cards
    from scenarios.kernel import calc

    twin = {"to": {"who": "enemy unit"}, "might": -2, "minimum": 1}
    card = cards.Card.model_validate({"name": "Twin Warden", "made_up": True, "type": "unit", "passives": [twin] * 2})
    monkeypatch.setitem(cards._READ, card.name, card)
    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"base": [{"id": "w", "card": card.name}, {"id": "a1", "card": "Test Unit"}]}, "B": {}},
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "B",
                "units": [{"id": "d1", "card": "Test Defender", "controller": "B", "might": 4}],
            }
        ],
    }
    for version, snapshots in (("2025-12-01", [2, 1]), ("2026-06-18", [])):
        game = GameState(setup, rules_version=version)
        game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
        defender = game.obj("d1")
        assert [amount for _, amount in defender.passive_limits] == snapshots, version
        assert calc.might(game, defender) == 1, calc.explain_might(game, defender)
