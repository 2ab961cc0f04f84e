"""Citations that justify: each step of every library replay cites rules whose text names what the step does.

For each kind of step (the procedure, or the note, that wrote it) this test lists the words its rules must
use: a damage step cites rules about damage, a recall step rules about recalls. A rule a step `defines` must
name what the step does; a rule it is done `because` of (the step of the turn, combat or chain that orders it)
must name what the step does or what orders it (the step it sits in). A rule's text is read with its parent's
(a list item such as 319.2 "After the game transitions between Phases" is read under 319 "A Cleanup occurs at
the following times"). The texts come from the corpus (tests may read it; the engine never does).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import scenarios
from rules_db import versions
from rules_db.replays import CitationTranslator
from scenarios import kernel, schema
from scenarios import versions as versions_module
from scenarios.replay import replay_file, replay_variant

ROOT = Path(__file__).resolve().parents[1]
CHOOSING = ["choose", "chose", "choice", "select", "decide", "decision", "determines", "order", "assign", "decline"]

# The words a step's rules must use, by the procedure or note that wrote the step (stems, case-insensitive).
TERMS: dict[str, list[str]] = {
    # player actions
    "standard_move": ["mov"],
    "play_card": ["play"],
    "activate": ["activat", "play"],  # 377.2: card text says activating an ability "use" or "play"
    "hide": ["hid"],
    "pass": ["pass"],
    "end_turn": ["turn", "end"],
    # the Chain and triggers
    "resolve": ["resolv", "execut"],
    "finalize_pending": ["pending", "finaliz", "choice"],
    "removed": ["remove", "legal option"],
    "put_trigger_on_chain": ["trigger"],
    "create_delayed": ["delayed"],
    "create_lasting_replacement": ["delayed", "replacement"],
    "promise_spell_bonus": ["delayed", "bonus damage"],  # 390.4, 391: Ravenborn Tome
    "apply_replacement": ["replacement", "instead"],
    "modify_event": ["replacement", "prevent", "damage"],
    "pay_cost": ["pay", "cost"],
    "pay_additional_cost": ["pay", "cost"],
    "discount": ["discount", "cost"],
    "decided_as_it_resolves": ["effect", "pay", "cost"],
    "deflect_cost": ["deflect", "cost", "choose"],
    "cost": ["cost"],
    # cleanups, showdowns, combat
    "cleanup_pass": ["cleanup"],
    "wins": ["win", "victory"],
    "wins_by_effect": ["win", "effect"],
    "token ceases to exist": ["token"],
    "trash_from_deck": ["trash"],
    "trash_hidden": ["hidden", "facedown"],
    "lethal": ["lethal", "damage", "might", "[m]", "arithmetic", "summed", "limitation"],  # [M]: the Might symbol
    "snapshot": [
        "snapshot",
        "arithmetic",
        "limitation",
    ],  # a passive decrease's limit fixed (2025-12-01) or the layer's arithmetic
    "set_stage": ["staged"],
    "staged": ["staged", "combat", "contested", "attacker"],
    "begin_showdown": ["showdown"],
    "begin_combat": ["combat", "showdown", "attacker"],
    "roles": ["attacker", "defender", "focus"],
    "designate": ["designation", "attacker", "defender"],
    "lose_designation": ["designation", "attacker"],  # 2025-06-02 calls it the "Attacker" status
    "remove_all_designations": ["designation"],
    "once per combat": ["once per combat"],
    "after_chain_emptied": ["focus"],
    "end_showdown": ["showdown"],
    "settle_showdown": ["control", "showdown"],
    "combat_damage_step": ["damage"],
    "combat_resolution_step": ["resol"],
    "outstanding": ["chain", "control"],
    "combat result": ["combat", "result"],
    "no damage": ["damage"],
    "total": ["might"],
    "might": ["might", "[m]", "arithmetic", "summed", "limitation"],  # a limited decrease's limitation
    # game actions
    "deal": ["damage", "deal"],
    "heal": ["heal"],
    "dies": ["kill", "die", "trash"],
    "banish": ["banish"],
    "exhaust": ["exhaust"],
    "ready": ["ready", "readies"],
    "stun": ["stun"],
    "buff": ["buff"],
    "spend_buff": ["buff"],
    "buffs_give_more": ["buff"],
    "each player": ["player"],
    "give_might": ["might", "arithmetic"],
    "grant_keyword": ["keyword"],
    "attach": ["attach"],
    "detach": ["detach"],
    "channel": ["channel", "rune"],
    "draw": ["draw"],
    "discard": ["discard"],
    "counter": ["counter"],
    "return_to_hand": ["hand", "zone"],
    "reveal": ["reveal"],
    "move": ["mov"],
    "move blocked": ["mov", "forbid", "impossible"],
    "recall": ["recall"],
    "enter_board": ["board", "enter", "play"],
    "play_by_effect": ["play"],
    "impossible": ["impossible", "can't", "cannot", "ignore", "as many as possible"],
    "mistargeted": ["target"],
    # control and scoring
    "apply_contested": ["contested"],
    "lift_contested": ["contested"],
    "contested_kept": ["contested"],
    "establish_control": ["control"],
    "lose_control": ["control"],
    "take_control": ["control"],
    "conquer": ["conquer"],
    "hold": ["hold"],
    "earn_point": ["point", "score"],
    "draw_instead_of_final_point": ["final point", "draw", "point"],
    "gain_points": ["point"],
    "gain_xp": ["xp"],
    "restrict": ["forbid"],  # 054.1: cards that forbid actions or effects
    "set_empowered": ["empower"],
    "score": ["score"],
    # the turn
    "expire": ["expir", "this turn"],
    "start_turn": ["turn", "ready", "readies", "start"],
    "finish_end_of_turn": ["cleanup", "end of turn"],
    # runes, costs and the keyword mechanics (733-747)
    "add": ["add"],
    "add_restricted": ["add"],
    "channel_phase": ["channel", "phase"],
    "channel short": ["channel", "rune"],
    "empty_rune_pools": ["rune pool"],
    "recycle": ["recycl"],
    # the main deck, the trash and the hand (scenarios/rules/looking.py, off_board.py)
    "take_looked_card": ["draw", "hand"],
    "trash_looked_cards": ["trash"],
    "put_on_deck": ["deck"],
    "put_back_in_order": ["deck"],
    "board_to_deck": ["deck"],
    "return_from_trash": ["trash", "hand"],
    "burn_out": ["burn"],
    "condition": ["legion", "condition", "mighty", "played"],  # which cards count as played (Legion)
    "reflexive": ["reflexive", "do this"],  # "Then do this:" makes a reflexive trigger (387.1)
    "look": ["look"],
    "equip cost": ["equip"],
    "domain power": ["domain"],  # the [C] of a card of several domains (versions.py: multi_domain_power)
    "stun ends": ["stun", "expir"],  # Stunned units recover (versions.py: stun_ends)
    "decided as finalized": ["may"],
    "repeat": ["repeat"],
    "return_control": ["control"],
    # choices
    "choice": CHOOSING,
    "question": CHOOSING,
}
NOT_CHECKED = {"refusal"}  # a refusal cites the rule that forbids the action, checked where it is expected


def rule_texts(version: str = kernel.RULES_VERSION, wrapped: bool = False) -> dict[str, str]:
    """Each rule's text by number; `wrapped`: a line that starts no rule continues the one before (Core Rules 1.4
    wraps its rules' lines)."""
    texts: dict[str, str] = {}
    path = ROOT / "corpus" / f"riftbound-core-rules-{version}.txt"
    number = None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^(\d{3}(?:\.\w+)*)\.?\s+(.*)$", line.strip())
        if match:
            number = match.group(1)
            texts.setdefault(number, match.group(2))
        elif wrapped and number is not None and line.strip():
            texts[number] += " " + line.strip()
    return texts


TEXTS = rule_texts(wrapped=True)
OTHER_TEXTS = {version: rule_texts(version, wrapped=True) for version in versions_module.KNOWN_VERSIONS}


def text_of(number: str, texts: dict[str, str] = TEXTS, parents: dict | None = None) -> str:
    """A rule's text with its parent's; a number the engine cites in another version (`419.4.b@2026-06-18`, a
    behaviour the versions disagree on) is read in that version."""
    if versions_module.is_faq(number):  # an official FAQ's entry: its question and answer must say it too
        from test_scenarios import faq_entry

        return faq_entry(number).lower()
    number, version = versions_module.split_versioned(number)
    if version is not None:
        texts, parents = OTHER_TEXTS[version], None
    parent = (parents or {}).get(number) or (number.rsplit(".", 1)[0] if "." in number else None)
    return (texts.get(number, "") + " " + (texts.get(parent, "") if parent else "")).lower()


def names(number: str, terms: list[str], texts: dict[str, str] = TEXTS, parents: dict | None = None) -> bool:
    text = text_of(number, texts, parents)
    return any(term in text for term in terms)


def replays():
    for path in scenarios.library_paths():
        yield replay_file(path)
        for variant in schema.load(path)[0].variants:
            yield replay_variant(path, variant.id)


JUDGED_UNDER: dict[str, str] = {}  # replay name -> the Core Rules version its replay is judged under
CITED_IN: dict[str, str] = {}  # replay name -> the version its steps' numbers are in (the engine's)
KEYWORDS_PRESENT: dict[str, set[str]] = {}  # replay name -> {object id: its printed keywords} as set up


def steps_with_context():
    """(step, the procedure of the step it sits in, the replay's name: its scenario and variant) for every step of
    every replay."""
    for replay in replays():
        name = f"{replay.scenario_id} [{replay.variant}]" if replay.variant else replay.scenario_id
        JUDGED_UNDER[name], CITED_IN[name] = replay.rules_version, replay.cited_version
        KEYWORDS_PRESENT[name] = {
            obj.id: set(obj.definition.keywords) for obj in replay.state.objects.values() if obj.definition is not None
        }
        stack: list = []
        for depth, step in replay.walk():
            del stack[depth:]
            yield step, (stack[-1].procedure if stack else None), name
            stack.append(step)


@pytest.fixture(scope="module")
def steps() -> list:
    """Every step of the library's replays, replayed once by the process that runs these tests (not at
    collection, which every test process does)."""
    return list(steps_with_context())


def test_every_step_kind_has_its_terms(steps):
    kinds = {step.procedure for step, _, _ in steps} - NOT_CHECKED
    missing = sorted(kind for kind in kinds if kind not in TERMS and not kind.startswith("log "))
    assert not missing, f"steps without the words their rules must use: {missing}"


def test_every_registered_procedure_has_its_terms():
    kernel.load_rules()
    assert sorted(set(kernel.PROCEDURES) - set(TERMS)) == []


@pytest.mark.parametrize("kind", sorted(TERMS))
def test_the_rules_a_step_cites_name_what_it_does(steps, kind):
    wrong = set()
    for step, parent, scenario in steps:
        if step.procedure != kind:
            continue
        for number in step.defines:
            if not names(number, TERMS[kind]):
                wrong.add(f"{scenario}: {kind} defines {number} ({TEXTS.get(number, 'missing')[:80]!r})")
        context = TERMS[kind] + TERMS.get(parent or "", [])
        for number in step.because:
            if not names(number, context):
                wrong.add(f"{scenario}: {kind} because {number} ({TEXTS.get(number, 'missing')[:80]!r})")
    assert not wrong, "\n".join(sorted(wrong))


def test_a_step_cites_its_rules_rather_than_writing_their_numbers(steps):
    """A number written into a step's words is never translated into the newest Core Rules; a cited one is.
    Refusals too: the keyword a card lacks is cited beside the rule that forbids its play."""
    written = sorted(
        f"{scenario}: {step.summary}"
        for step, _, scenario in steps
        if re.search(r"\b\d{3}(\.\w+)+\b|\(\d{3}\)|, \d{3}\)", step.summary)
    )
    assert not written
    assert any(step.procedure == "impossible" and "422.4" in step.defines for step, _, _ in steps)
    assert any(step.procedure == "refusal" and "806.1.c.1" in step.defines for step, _, _ in steps)


def test_a_might_shown_cites_the_rule_of_each_keyword_or_buff_in_it(steps):
    """'+4 from Assault' is there because of Assault's rule (807.1.c): the step cites it beside the layers."""
    wanted = {"from Assault": "807.1.c", "from Shield": "814.1.c", "from buff": "703"}
    shown = [(step, words) for step, _, _ in steps for words in wanted if words in step.summary]
    assert {words for _, words in shown} == set(wanted)
    assert [step.summary for step, words in shown if wanted[words] not in step.defines] == []


def test_every_step_cites_a_rule(steps):
    uncited = sorted({f"{scenario}: {step.procedure}" for step, _, scenario in steps if not step.rules})
    assert not uncited


def test_citations_translated_into_the_older_core_rules_still_name_what_each_step_does(steps, real_db):
    """The engine cites its own version (Core Rules 1.4); a scenario judged under 2025-12-01 gets its citations
    through the stored lineage (`CitationTranslator`). Each translated rule must still pass the step-kind text
    check, read in the database, and every step must keep a citation."""
    import sqlite_utils

    db = sqlite_utils.Database(real_db)
    newest = versions.rules_document(db, "riftbound", kernel.DEFAULT_VERSION)
    assert newest is not None and newest["version"] != kernel.RULES_VERSION, "the test needs an older version"
    translate = CitationTranslator(db, "riftbound", kernel.RULES_VERSION, newest["version"])
    rows = list(
        db.query("select number, parent_number, heading, text from rules where document_id = ?", [newest["id"]])
    )
    texts = {row["number"]: f"{row['heading'] or ''} {row['text'] or ''}" for row in rows}
    parents = {row["number"]: row["parent_number"] for row in rows}
    wrong, uncited = set(), set()
    for step, parent, scenario in steps:
        kind = step.procedure
        if kind in NOT_CHECKED or kind.startswith("log ") or JUDGED_UNDER[scenario] != newest["version"]:
            continue
        if step.rules and not translate(step.rules):
            uncited.add(f"{scenario}: {kind} {step.rules}")
        # the translation the replay stores: each rule's counterpart, or (none has one) their nearest ancestors'
        counterpart = translate.direct if any(map(translate.direct, step.rules)) else translate.nearest
        for role, numbers, terms in (
            ("defines", step.defines, TERMS[kind]),
            ("because", step.because, TERMS[kind] + TERMS.get(parent or "", [])),
        ):
            for number in numbers:
                other = counterpart(number)
                if other is not None and not names(other, terms, texts, parents):
                    wrong.add(f"{scenario}: {kind} {role} {number} -> {other} ({texts.get(other, '')[:80]!r})")
    assert not uncited, "steps left without a citation in " + newest["version"] + ":\n" + "\n".join(sorted(uncited))
    assert not wrong, "\n".join(sorted(wrong))


def test_a_keyword_summed_from_several_sources_cites_the_summing_rule(steps):
    """Petty Officer's Assault and Cleave's Assault 3 make '+4 from Assault': summed by 807.2 (733.2 in Core
    Rules 2025-12-01), Shields by 814.2; a single instance cites only the keyword's own rule."""
    summing = {"Assault": "807.2", "Shield": "814.2"}
    for keyword, rule in summing.items():
        shown = [step for step, _, _ in steps if f"from {keyword}" in step.summary]
        summed = [step for step in shown if rule in step.defines]
        assert summed, f"no Might shown sums two {keyword} instances"
        assert len(summed) < len(shown), f"every {keyword} shown cites {rule}, even a single instance"


# -- Core Rules 1.4, the rules in force: every step of a replay judged under it keeps the rule that made it happen,
# -- cites rules 1.4 has, never a bare heading where a numbered sub-rule says the thing, and a keyword's rule where
# -- the keyword decides the step (issue 30).

IN_FORCE = "2026-06-18"


def stored_citations(db, translators: dict, name: str, step) -> tuple[list[str], list[str]]:
    """A step's `because` and all its rules as the build stores them for the version its replay is judged under
    (`CitationTranslator`: each rule to its counterpart, or, none having one, each to its nearest ancestor's)."""
    pair = (CITED_IN[name], JUDGED_UNDER[name])
    if pair not in translators:
        translators[pair] = CitationTranslator(db, "riftbound", *pair)
    translate = translators[pair]
    counterpart = translate.direct if any(map(translate.direct, step.rules)) else translate.nearest
    because = [found for number in step.because if (found := counterpart(number))]
    return because, translate(step.rules)


def version_rules(db, version: str) -> dict[str, dict]:
    document = versions.rules_document(db, "riftbound", version)
    return {
        row["number"]: row
        for row in db.query(
            "select r.number, r.parent_number, r.heading, r.text, exists (select 1 from rules c where c.parent_id = r.id)"
            " as has_children from rules r where r.document_id = ?",
            [document["id"]],
        )
    }


def test_no_step_of_a_replay_judged_under_the_rules_in_force_lacks_its_because(steps, real_db):
    """Where 1.4 merged rules the translated `because` used to be dropped (99 of 2,508 steps): the engine now
    cites 1.4 natively, so every step keeps the rule that made it happen, and every number exists in 1.4."""
    import sqlite_utils

    db = sqlite_utils.Database(real_db)
    rules, translators = version_rules(db, IN_FORCE), {}
    judged = [(step, name) for step, _, name in steps if JUDGED_UNDER[name] == IN_FORCE]
    assert len(judged) > 1000
    lacking, missing = set(), set()
    for step, name in judged:
        because, cited = stored_citations(db, translators, name, step)
        if not because:
            lacking.add(f"{name}: {step.procedure} {step.because}")
        missing.update(
            f"{name}: {step.procedure} cites {number}"
            for number in cited
            if number not in rules and not (versions_module.is_faq(number) and text_of(number).strip())
        )  # an official FAQ's entry in force with 1.4 is no rule number: it must be an entry of that FAQ
    assert not lacking, f"{len(lacking)} steps without a because:\n" + "\n".join(sorted(lacking)[:40])
    assert not missing, "\n".join(sorted(missing)[:40])


def test_the_rules_a_step_judged_under_the_rules_in_force_cites_name_what_it_does(steps, real_db):
    """The citation-text check, read in the database's 1.4 text, on the numbers a 1.4 replay stores."""
    import sqlite_utils

    db = sqlite_utils.Database(real_db)
    rules, translators = version_rules(db, IN_FORCE), {}
    texts = {number: f"{row['heading'] or ''} {row['text'] or ''}" for number, row in rules.items()}
    parents = {number: row["parent_number"] for number, row in rules.items()}
    wrong = set()
    for step, parent, name in steps:
        kind = step.procedure
        if JUDGED_UNDER[name] != IN_FORCE or kind in NOT_CHECKED or kind.startswith("log "):
            continue
        because, cited = stored_citations(db, translators, name, step)
        context = TERMS[kind] + TERMS.get(parent or "", [])
        for number in cited:
            terms = context if number in because else TERMS[kind]
            if not names(number, terms, texts, parents):
                wrong.add(f"{name}: {kind} cites {number} ({texts.get(number, 'missing')[:80]!r})")
    assert not wrong, "\n".join(sorted(wrong)[:60])


# Steps a version's rules say in no numbered rule, only as part of a step they head: (version, heading, procedure).
# The Core Rules 2025-06-02 never say that Attacker and Defender designations are removed (2025-12-01 does, in
# 444.1.a.3; 1.4 in 466.7.a): the Resolution Step they end with is all there is to cite.
NO_SUB_RULE_SAYS_IT = {("2025-06-02", "627", "remove_all_designations")}


def test_a_step_cites_a_heading_only_where_no_numbered_sub_rule_says_the_thing(steps, real_db):
    """'Step 3: Pass', 'Playing Cards', '3. Arithmetic' are headings: the sub-rule that says what the step does is
    cited instead (1,724 of 7,365 steps cited a bare heading)."""
    import sqlite_utils

    db = sqlite_utils.Database(real_db)
    by_version = {version: version_rules(db, version) for version in set(JUDGED_UNDER.values())}
    translators: dict = {}
    bare = set()
    for step, _, name in steps:
        rules = by_version[JUDGED_UNDER[name]]
        for number in stored_citations(db, translators, name, step)[1]:
            row = rules.get(number)
            if row and row["heading"] and row["has_children"]:
                if (JUDGED_UNDER[name], number, step.procedure) in NO_SUB_RULE_SAYS_IT:
                    continue
                bare.add(f"{JUDGED_UNDER[name]} {number} {row['heading']!r}: {step.procedure}")
    assert not bare, f"{len(bare)} bare headings cited:\n" + "\n".join(sorted(bare))


def keyword_rules(version: str = IN_FORCE) -> dict[str, str]:
    """Each keyword of the Keyword Glossary and its rule's number in `version` ("Tank" -> "815")."""
    texts = rule_texts(version, wrapped=True)
    glossary = next(number for number, text in texts.items() if text.strip() == "Keyword Glossary")
    section = glossary.split(".")[0][0]  # the hundreds the glossary's entries follow it in
    return {
        text.strip(): number
        for number, text in texts.items()
        if "." not in number and number[0] == section and int(number) > int(glossary) and len(text.split()) <= 2
    }


def test_every_keyword_the_library_exercises_has_its_rule_cited_at_a_step_it_decides(steps):
    """A keyword present in a replay (on a card set up or played) decides some step there: that step cites the
    keyword's rule (its number or a sub-rule), be it adding (Assault's Might), restricting a choice (Tank at
    the damage assignment), a cost (Deflect, Accelerate), a condition (Legion) or a refusal (Action)."""
    glossary = keyword_rules()
    assert {"Tank", "Assault", "Reaction", "Action", "Hidden"} <= set(glossary)
    exercised: dict[str, set[str]] = {}
    cited: set[str] = set()
    for step, _, name in steps:
        present = set().union(*KEYWORDS_PRESENT[name].values()) & set(glossary)
        for keyword in present:
            exercised.setdefault(keyword, set()).add(name)
            rule = glossary[keyword]
            if any(number == rule or number.startswith(rule + ".") for number in step.rules):
                cited.add(keyword)
    assert len(exercised) >= 10
    assert sorted(set(exercised) - cited) == []


def test_a_damage_assignment_among_units_with_tank_cites_tank(steps):
    """Tank restricts the damage-assignment choice (815.1.c): the question, and the answer, cite it beside the
    assignment rule (465.2.c) whenever a unit with Tank is among those assigned damage."""
    tank = keyword_rules()["Tank"]
    asked = []
    for step, _, name in steps:
        if step.procedure not in ("question", "choice") or "combat damage among" not in step.summary:
            continue
        among = step.summary.split(" among ", 1)[1].split(" -> ")[0].split(", ")
        if any("Tank" in KEYWORDS_PRESENT[name].get(unit, ()) for unit in among):
            asked.append((name, step))
    assert asked, "no replay assigns damage among units with Tank"
    uncited = [f"{name}: {step.summary}" for name, step in asked if not any(n.startswith(tank) for n in step.rules)]
    assert not uncited, "\n".join(uncited)


STATE_WORDS = {"neutral-open": "neutral open", "neutral-closed": "closed state", "showdown-closed": "closed state"}
STATE_WORDS["showdown-open"] = "showdown"


def test_a_play_or_activation_cites_the_timing_rule_of_the_state_it_happens_in():
    """Every play cited the same rules whatever the context; now the rule that let it happen here: in the turn
    player's Main Phase (a Neutral Open State), on a Chain (a Closed State, Reaction) or in a showdown (Action)."""
    from scenarios.board import step_boards

    seen, wrong = set(), []
    for path in scenarios.library_paths():
        replay = replay_file(path)
        walked = list(replay.state.trace.steps())
        acts = {index for index, (_, step) in enumerate(walked) if step.procedure in ("play_card", "activate")}
        start, boards = step_boards(replay.state, acts)
        for index in sorted(acts):
            step = walked[index][1]
            state = (boards[index - 1][2] if index else start)["turn"]["state"]
            seen.add(state)
            if not any(STATE_WORDS[state] in text_of(number) for number in step.because):
                wrong.append(f"{replay.scenario_id}: {step.summary} in {state}: because {step.because}")
    assert {"neutral-open", "neutral-closed", "showdown-open"} <= seen
    assert not wrong, "\n".join(wrong[:30])
