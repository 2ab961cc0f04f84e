"""The Core Rules versions the engine knows, and the one table of the behaviours that changed between them.

The engine cites its own version's numbers (`kernel.RULES_VERSION`, Core Rules 1.4, the rules in force) and
`rules_db` translates them into the version a scenario is judged under. Numbers follow the version, but where two versions disagree on an outcome the
behaviour must follow it too: each such behaviour is declared once here, with the rules that say it in each
version and the engine's choice under each. A game is judged under one version (`GameState.rules_version`, a
scenario's `rules: {core: ...}`); a rule module asks `game.reading(name)` for the reading it applies, and cites
`reading.cited`, that version's own rules (a number of a version other than the engine's is written
`number@version`, and the translator takes it as it is).

A version the engine does not know is judged by the readings of the newest known version not after it (the
oldest known when it is older than all of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from scenarios.kernel import RULES_VERSION, EngineError

KNOWN_VERSIONS = ("2025-06-02", "2025-12-01", "2026-06-18")  # oldest first; versions are dates
NEWEST_VERSION = KNOWN_VERSIONS[-1]
VERSION_MARK = "@"  # "412.1.b@2025-12-01": a rule numbered in a version other than the engine's (1.4)
# An entry of one of Riot's official FAQs, cited as "faq:<the FAQ's date>#q<N>" (the Nth question, 1-based in
# document order): "faq:2026-08-14#q11" is the 11th question of the Vendetta FAQ. It is no rule number: it is
# cited as it is in every version, and rules_db resolves it to that ruling (documents.version = the date,
# rulings.anchor = "q<N>").
FAQ_MARK = "faq:"
VENDETTA_FAQ = "2026-08-14"  # in force with Core Rules 1.4, over the rules where they differ (until the next)


def faq(date: str, question: int) -> str:
    """The citation of the `question`th question (1-based) of the official FAQ dated `date`."""
    return f"{FAQ_MARK}{date}#q{question}"


def is_faq(citation: str) -> bool:
    return citation.startswith(FAQ_MARK)


def faq_parts(citation: str) -> tuple[str, str] | None:
    """(the FAQ's date, the ruling's anchor "q<N>") of a FAQ citation, or None for a rule number."""
    if not is_faq(citation):
        return None
    date, _, anchor = citation[len(FAQ_MARK) :].partition("#")
    return (date, anchor) if date and anchor.startswith("q") and anchor[1:].isdigit() else None


def versioned(number: str, version: str) -> str:
    """A rule number as the engine cites it: plain in its own version, marked with any other (a FAQ entry is
    cited as it is)."""
    return number if version == RULES_VERSION or is_faq(number) else f"{number}{VERSION_MARK}{version}"


def split_versioned(citation: str) -> tuple[str, str | None]:
    """(number, the version it is numbered in, None for a plain number: the citing side's own version)."""
    number, _, version = citation.partition(VERSION_MARK)
    return number, version or None


def reading_version(version: str) -> str:
    """The known version whose readings a game judged under `version` applies: the newest known not after it, or
    the oldest known for a version older than all of them."""
    return next((known for known in reversed(KNOWN_VERSIONS) if known <= version), KNOWN_VERSIONS[0])


# The behaviours the versions disagree on, by name (`BEHAVIOURS` defines exactly these, checked as the module loads):
# `game.reading(name)` takes only these, so mypy fails a misspelt name in a rule module at `make lint`.
BehaviourName = Literal[
    "cards_played_as_checked",
    "control_of_a_battlefield_left_empty",
    "replacements_ordered_by",
    "final_point_from",
    "deflect_charged",
    "optional_trigger_decided",
    "weaponmaster_opens_with_you_may",
    "combat_result_waits_for_the_chain",
    "combat_joins_open_showdown",
    "contested_without_its_contester",
    "assignment_counts_prevention",
    "multi_domain_power",
    "stun_ends",
    "focus_after_the_initial_chain",
    "instruction_on_a_vanished_object",
    "victory_when",
    "assignment_capped_at_lethal",
    "looking_past_the_deck",
    "designations_before_lethal",
    "focus_after_a_reopened_chain",
    "passive_limit_snapshotted",
    "if_right_after_a_trigger_condition",
]


@dataclass(frozen=True)
class Reading:
    """What one version says about a behaviour: the engine's choice, and the rules (in that version's
    numbers) that say it."""

    version: str
    choice: str
    rules: tuple[str, ...]
    # (role, rule) for a reading whose steps cite its rules one at a time: each named by what it decides, never by
    # its place in `rules` (every role's rule is one of `rules`, checked by `Behaviour`).
    roles: tuple[tuple[str, str], ...] = ()

    @property
    def cited(self) -> tuple[str, ...]:
        return tuple(versioned(number, self.version) for number in self.rules)

    def rule(self, role: str) -> str:
        """The rule this reading gives `role`, cited as `cited` cites it."""
        for name, number in self.roles:
            if name == role:
                return versioned(number, self.version)
        raise EngineError(f"the {self.version} reading ({self.choice}) names no rule for {role!r}")


@dataclass(frozen=True)
class Behaviour:
    """A behaviour the versions disagree on: `question` says what is decided, `readings` one per known version."""

    name: BehaviourName
    question: str
    readings: tuple[Reading, ...]

    def __post_init__(self) -> None:
        if tuple(reading.version for reading in self.readings) != KNOWN_VERSIONS:
            raise EngineError(f"behaviour {self.name!r}: one reading per known version, oldest first {KNOWN_VERSIONS}")
        if not all(reading.rules for reading in self.readings):
            raise EngineError(f"behaviour {self.name!r}: every reading cites the rules that say it")
        for reading in self.readings:
            if any(number not in reading.rules for _, number in reading.roles):
                raise EngineError(
                    f"behaviour {self.name!r}: a role of the {reading.version} reading is not a rule it cites"
                )
        for reading in self.readings:
            for citation in reading.rules:
                parts = faq_parts(citation)
                if is_faq(citation) and (parts is None or parts[0] < reading.version):
                    raise EngineError(
                        f"behaviour {self.name!r}: {citation!r} is no FAQ entry in force in {reading.version}"
                    )

    def under(self, version: str) -> Reading:
        """The reading a game judged under `version` applies."""
        applied = reading_version(version)
        return next(reading for reading in self.readings if reading.version == applied)


BEHAVIOURS: dict[str, Behaviour] = {
    behaviour.name: behaviour
    for behaviour in (
        Behaviour(
            "cards_played_as_checked",
            "Which of its player's cards an ability that checks cards played (Legion, a discount) counts: those "
            "whose play is complete (a countered card was not played), or every card Finalized (a countered one "
            "too)?",
            (
                Reading("2025-06-02", "completed", ("601.1.b", "724.1.c")),
                Reading("2025-12-01", "completed", ("412.1.b", "738.1.c.1")),
                Reading(
                    "2026-06-18", "finalized", ("419.4.b", "812.1.c", faq(VENDETTA_FAQ, 13), faq(VENDETTA_FAQ, 18))
                ),
            ),
        ),
        Behaviour(
            "control_of_a_battlefield_left_empty",
            "When does a player lose control of a battlefield where they have no units left (not contested): in "
            "the next Cleanup, also while the Chain exists, or only in an Open State with no Showdown or Combat "
            "there?",
            (
                Reading("2025-06-02", "any_cleanup", ("181.4.d",)),
                Reading("2025-12-01", "any_cleanup", ("184.4.c", "322.6")),
                Reading("2026-06-18", "open_state", ("190.4.c", "323.6")),
            ),
        ),
        Behaviour(
            "replacements_ordered_by",
            "When several replacement effects apply to an event acting on a permanent, who chooses the one that "
            "applies: the permanent's owner, or its controller (they differ once control was taken)?",
            (
                Reading("2025-06-02", "owner", ("575",)),
                Reading("2025-12-01", "owner", ("368",)),
                Reading("2026-06-18", "controller", ("372",)),
            ),
        ),
        Behaviour(
            "final_point_from",
            "From which point total is a point scored the Final Point, withheld from a Conquer that leaves a "
            "battlefield unscored this turn: exactly 1 point below the Victory Score, or 1 below or higher (so "
            "a player tied at the Victory Score too)?",
            (
                Reading("2025-06-02", "one_below", ("632.1.b",)),
                Reading("2025-12-01", "one_below", ("448.1.b",)),
                Reading("2026-06-18", "one_below_or_higher", ("471.1.b",)),
            ),
        ),
        Behaviour(
            "deflect_charged",
            "Does a spell or ability that chooses a permanent with Deflect more than once (a Repeat's extra "
            "choices) pay the Deflect Value once, or once for each time it chooses it?",
            (
                Reading("2025-06-02", "once_per_item", ("721.1.c",)),
                Reading("2025-12-01", "once_per_item", ("735.1.c",)),
                Reading("2026-06-18", "per_choice", ("809.1.c",)),
            ),
        ),
        Behaviour(
            "optional_trigger_decided",
            'When does the controller of a triggered ability whose effect begins with "you may" (or with a cost '
            'within instructions, "pay X to Y") decide, and pay that cost: as the ability resolves, or as it is '
            "finalized to the Chain (declining removes it, as if it had not triggered)?",
            (
                Reading("2025-06-02", "resolved", ("583.2",)),
                Reading("2025-12-01", "resolved", ("376.2.b", "392.1")),
                Reading("2026-06-18", "finalized", ("383.3.a", "383.3.b.1", "204.3.a")),
            ),
        ),
        Behaviour(
            "weaponmaster_opens_with_you_may",
            'Is Weaponmaster short for "When you play me, you may choose an Equipment ... Pay the cost of its Equip '
            'ability, reduced by [A], to attach it" (an opening "you may", decided as it is finalized, the cost then '
            'paid as it resolves), or for "When you play me, choose an Equipment ..." (its one choice, whether to '
            "pay that cost, made as it resolves)?",
            (
                Reading("2025-06-02", "pay_on_resolution", ("583.2",)),  # no Weaponmaster yet: as 2025-12-01
                Reading("2025-12-01", "pay_on_resolution", ("747.1.c",)),
                Reading("2026-06-18", "you_may_first", ("821.1.c", "383.3.a")),
            ),
        ),
        Behaviour(
            "combat_result_waits_for_the_chain",
            "After the Combat Cleanup of the Resolution Step put items on the Chain (a Deathknell), is control of "
            "the battlefield established (and a Conquer scored) at once, with those items still on the Chain, or "
            "only once the Chain has resolved, as an Outstanding Task? And does the Combat (with the Attacker and "
            "Defender designations, so Shield and Assault) end with the Combat Cleanup, or only after that Chain, "
            "the result and control (466.7)?",
            (
                Reading("2025-06-02", "at_once", ("627.3",)),
                Reading("2025-12-01", "at_once", ("444.2",)),
                Reading("2026-06-18", "after_chain", ("466.2", "466.4", "466.5")),
            ),
        ),
        Behaviour(
            "combat_joins_open_showdown",
            "A Combat is staged where a non-combat showdown is ongoing (the opponent's units arrived during it): "
            "does it wait until that showdown closes (then it is staged and begins), or does that showdown become "
            "a Combat Showdown at once, in the Showdown Open State?",
            (
                Reading("2025-06-02", "after", ("548", "548.1")),
                Reading("2025-12-01", "after", ("345.2.b", "345.2.b.1")),
                Reading("2026-06-18", "at_once", ("323.14", "460.1", "464.1")),
            ),
        ),
        Behaviour(
            "contested_without_its_contester",
            "A battlefield is Contested, but the player who applied Contested has no unit left there and no "
            "Showdown or Combat is ongoing there: does it stay Contested until control is established, or does "
            "a Cleanup remove the status?",
            (
                Reading("2025-06-02", "kept", ("181.3.b",)),
                Reading("2025-12-01", "kept", ("184.3.b",)),
                Reading(
                    "2026-06-18",
                    "removed",
                    ("323.11", "323.11.a"),
                    roles=(("lifted", "323.11"), ("contested_by_the_other", "323.11.a")),
                ),
            ),
        ),
        Behaviour(
            "assignment_counts_prevention",
            "Assigning combat damage to a unit whose next damage a replacement effect would prevent entirely: is "
            "lethal still its Might less its damage, or does the prevention count, so that no amount is lethal "
            "and the unit can take any amount (yet, not exempt, lethal must reach it in full before the next)?",
            (
                Reading("2025-06-02", "ignored", ("626.1.d.1.a", "626.1.d.2")),
                Reading("2025-12-01", "ignored", ("443.1.d.2", "443.1.d.3")),
                Reading("2026-06-18", "counted", ("437.5.a", "465.2.c.5", "465.2.c.10", faq(VENDETTA_FAQ, 11))),
            ),
        ),
        Behaviour(
            "multi_domain_power",
            "The Power a card of several domains costs ([C] in its cost, and the Power of its Accelerate cost): "
            "Power of any domain ([A]), or only Power of one of the card's domains?",
            (
                Reading("2025-06-02", "its_domains", ("156.2", "156.2.a")),
                Reading("2025-12-01", "any_domain", ("134.2.e.6.b", "731.1.a.2")),
                Reading("2026-06-18", "its_domains", ("135.2.e.6.c", "805.1.a.1")),
            ),
        ),
        Behaviour(
            "stun_ends",
            "When does a Stunned unit lose the status: at the beginning of the Ending Step (before the effects "
            "'at the end of the turn'), or with the 'this turn' effects in the end of turn cleanup (after them)?",
            (
                Reading("2025-06-02", "ending_step", ("599.1.a.2",)),
                Reading("2025-12-01", "ending_step", ("410.1.a.2",)),
                Reading("2026-06-18", "expiration", ("423.1.a.2", "317.2.c")),
            ),
        ),
        Behaviour(
            "focus_after_the_initial_chain",
            "When the last item of a Combat's Initial Chain (its attack and defend triggers) resolves, does Focus "
            "pass to the next player, as after any chain in a showdown, or does the player with Focus keep it?",
            (
                Reading("2025-06-02", "passes", ("552",)),
                Reading("2025-12-01", "kept", ("343.1", "442.1.e")),
                Reading("2026-06-18", "kept", ("346.1", "464.2.d")),
            ),
        ),
        Behaviour(
            "victory_when",
            "When does a player who reaches the Victory Score win: at once, as the points are gained (the game "
            "ends in the middle of what gave them: the rest of a Burn Out's draw is not done), or only in a Cleanup, "
            "and then only with more points than any opponent (tied players play on)?",
            (
                Reading("2025-06-02", "immediately", ("633",)),
                Reading("2025-12-01", "immediately", ("449", "322.1")),
                Reading("2026-06-18", "in_a_cleanup", ("323.1", "472")),
            ),
        ),
        Behaviour(
            "assignment_capped_at_lethal",
            "Assigning combat damage among several units: may a unit be assigned more than lethal damage while "
            "another still lacks lethal (only lethal in full before the next is required), or is each capped at "
            "lethal until no other unit remains?",
            (
                Reading("2025-06-02", "uncapped", ("626.1.d", "626.1.d.2")),
                Reading("2025-12-01", "capped", ("443.1.d.4",)),
                Reading("2026-06-18", "capped", ("465.2.c.4",)),
            ),
        ),
        Behaviour(
            "looking_past_the_deck",
            "An instruction to look at or reveal cards of an empty Main Deck (Vision, Dazzling Aurora): does the "
            "player burn out first (then look at what was recycled in), or look at as many as there are, none, "
            "without burning out?",
            (
                Reading("2025-06-02", "burns_out", ("607.1.b", "607.2")),
                Reading("2025-12-01", "no_burn_out", ("418.1.c",)),
                Reading("2026-06-18", "no_burn_out", ("431.1.c",)),
            ),
        ),
        Behaviour(
            "passive_limit_snapshotted",
            "A passive ability decreases Might to a minimum ('Stunned enemy units here have -8 might, to a minimum "
            "of 1 might'): is the limit snapshotted as the passive begins to apply to a unit, so the decrease "
            "stays at what it could take then while it applies (a later +2 raises the unit by 2), or recomputed "
            "each time the layer applies, like any passive (a later +2 is eaten by the decrease)?",
            (
                Reading("2025-06-02", "snapshotted", ("637.3.b",)),  # no snapshot rule yet: read as 2025-12-01 wrote it
                Reading("2025-12-01", "snapshotted", ("454.3.d.2.b",)),
                Reading("2026-06-18", "recomputed", ("477.3.e.2.b",)),
            ),
        ),
        Behaviour(
            "focus_after_a_reopened_chain",
            "In a Showdown, the last item on the Chain resolves and the Cleanup after it puts triggered abilities "
            "on the Chain (a Deathknell, a late attacker's attack trigger): does Focus pass as that last item "
            "resolves and again as the triggers' chain closes (each time the last item on the Chain resolves), "
            "or once, as the turn returns to an Open State, the triggers adding to the Chain no chain of their own "
            "(a chain a triggered ability opens never passes it)?",
            (
                Reading("2025-06-02", "each_chain", ("552",)),
                Reading("2025-12-01", "each_chain", ("343",)),
                Reading("2026-06-18", "once_in_open_state", ("346", "346.1")),
            ),
        ),
        Behaviour(
            "designations_before_lethal",
            "In a Cleanup during a Combat, are units killed for lethal damage before the Attacker and Defender "
            "designations are assigned or removed (a unit arriving at the combat is checked without its Assault "
            "or Shield, one that left it still with them), or are the designations updated first, so the "
            "lethal check reads the Might they give?",
            (
                Reading(
                    "2025-06-02", "lethal_first", ("520", "521"), roles=(("lethal", "520"), ("designations", "521"))
                ),
                Reading(
                    "2025-12-01",
                    "lethal_first",
                    ("322.4", "322.5"),
                    roles=(("lethal", "322.4"), ("designations", "322.5")),
                ),
                Reading(
                    "2026-06-18",
                    "designations_first",
                    ("323.2", "323.5"),
                    roles=(("designations", "323.2"), ("lethal", "323.5")),
                ),
            ),
        ),
        Behaviour(
            "instruction_on_a_vanished_object",
            'An instruction names, other than as a target, an object that is no longer on the board ("kill it" '
            "of a delayed ability, after the unit died): is the instruction ignored for it (so what is linked to "
            "it is ignored too), or negated, as the Vendetta FAQ narrows 'ignored' to a mistargeted instruction "
            "(linked instructions still execute unless they refer to the action)?",
            (
                Reading("2025-06-02", "ignored", ("563.2.c.6",)),
                Reading("2025-12-01", "ignored", ("055", "356.3.e.6")),
                Reading("2026-06-18", "negated", ("359.3.e.6", faq(VENDETTA_FAQ, 34))),
            ),
        ),
        Behaviour(
            "if_right_after_a_trigger_condition",
            'A triggered ability reads "When X, if Y, Z": is Y part of its Effect, checked as it resolves (the '
            "Effect is everything after the comma that follows the Condition), or part of its Trigger Condition, "
            "checked as X happens, so the ability is placed only if Y holds then and resolves even if Y stops "
            "holding in reaction?",
            (
                Reading("2025-06-02", "effect", ("583.2", "583.2.a")),
                Reading("2025-12-01", "effect", ("376.2.a", "376.2.b")),
                Reading("2026-06-18", "trigger_condition", ("383.2.a", "383.2.a.1")),
            ),
        ),
    )
}


# Words a version renamed: the engine's own word (its version's) -> the word of each older version that said
# otherwise, oldest first; a version uses the word of the newest entry not after it. 1.4 calls the phase in which
# the turn player acts the Main Phase (316); 2025-12-01 and before called it the Action Phase. The chain that
# triggers of attacking and defending make as a combat opens is the Combat Chain (464.2.e), the Initial Chain
# before.
RENAMED: dict[str, tuple[tuple[str, str], ...]] = {
    "main": (("2025-06-02", "action"), ("2026-06-18", "main")),
    "combat chain": (("2025-06-02", "initial chain"), ("2026-06-18", "combat chain")),
}


def word(engine_word: str, version: str) -> str:
    """The word a game judged under `version` says for the engine's `engine_word` (a phase's name, ...)."""
    said = engine_word
    for since, words in RENAMED.get(engine_word, ()):
        if since <= version:
            said = words
    return said


if set(BEHAVIOURS) != set(get_args(BehaviourName)):
    raise EngineError(
        f"BehaviourName and BEHAVIOURS name different behaviours: {set(BEHAVIOURS) ^ set(get_args(BehaviourName))}"
    )


def readings_under(version: str) -> dict[str, Reading]:
    """Every behaviour's reading under `version` (a game works them out once)."""
    return {name: behaviour.under(version) for name, behaviour in BEHAVIOURS.items()}
