"""The kernel and the game state's API: the layering of the engine's modules, legal actions, pop, outcome,
typed actions and the replay budget."""

from __future__ import annotations

import ast
import dataclasses
import gc
import json
import re
import weakref
from pathlib import Path

import pytest
import yaml
from test_engine import BASIC, attack

import scenarios
from scenarios import kernel, schema
from scenarios.actions import Choose, EndTurn, Move, Pass, Play, parse_action
from scenarios.cards import load_library
from scenarios.journal import Journal
from scenarios.kernel import Budget, BudgetExceeded, Refusal
from scenarios.objects import ChainItem, Combat, Event, ItemKind, Kind, Obj, Role, TriggerInstance, View, Zone
from scenarios.replay import replay_file
from scenarios.rules import cleanups
from scenarios.state import GameState

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scenarios"
RULE_MODULES = sorted((PACKAGE / "rules").glob("*.py"))
SHARED = {
    "scenarios.kernel",
    "scenarios.objects",
    "scenarios.journal",
    "scenarios.trace",
    "scenarios.cards",
    "scenarios.token_kinds",  # the tokens 187 defines, card data split from scenarios.cards
    "scenarios.selectors",  # targets, filters and quantities of the card vocabulary, split from scenarios.cards
    "scenarios.actions",
    "scenarios.game",  # the Game protocol the rule functions are annotated with
}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_rule_modules_import_only_the_kernel_the_state_types_and_shared_helpers():
    assert len(RULE_MODULES) > 10
    for path in RULE_MODULES:
        if path.name == "__init__.py":
            continue
        ours = {name for name in imported_modules(path) if name.split(".")[0] == "scenarios"}
        siblings = {name for name in ours if name.startswith("scenarios.rules")}
        assert not siblings, f"{path.name} imports a sibling rule module: {sorted(siblings)}"
        assert {name for name in ours if not any(name == s or name.startswith(s + ".") for s in SHARED)} == set(), (
            path.name
        )


def test_the_engine_imports_nothing_from_ingest_or_rules_db():
    for path in sorted(PACKAGE.rglob("*.py")):
        layers = {name.split(".")[0] for name in imported_modules(path)}
        assert not layers & {"ingest", "rules_db", "datasette_plugins"}, f"{path} imports {layers}"


def test_no_rule_module_names_a_card():
    names = {card.name for card in load_library().values()} | {c.real for c in load_library().values() if c.real}
    # One pattern for all the names (longest first), so each file is read once.
    any_name = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")\b")
    for path in [*RULE_MODULES, PACKAGE / "kernel.py", PACKAGE / "state.py", PACKAGE / "objects.py"]:
        found = sorted(set(any_name.findall(path.read_text(encoding="utf-8"))))
        assert not found, f"{path.name} names cards: {found}"


def test_every_procedure_and_query_a_module_calls_is_registered():
    kernel.load_rules()
    tables = {"do": kernel._DISPATCHERS, "calc": kernel.QUERIES}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in tables:
                assert node.attr in tables[node.value.id], f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}"


def test_every_procedure_declares_what_it_applies_or_is_given_it():
    """Each procedure's trace step cites a rule that makes it happen (the dispatcher enforces `because=`)."""
    game = GameState(BASIC)
    with pytest.raises(kernel.EngineError, match="because"):
        kernel.perform(game, "recall", ("a1",), ())


def test_typed_actions_round_trip_to_the_yaml_form():
    for action in (
        Move(by="A", units=("a1", "a2"), to="bf1"),
        Play(by="A", card="seeker", targets={"target": "d1"}),
        Play(by="B", card="rex", at="bf1", accelerate=True),
        Pass(by="B"),
        EndTurn(by="A"),
        Choose(by="B", choice="assign", pick={"d1": 2, "d2": 2}),
    ):
        data = yaml.safe_load(yaml.safe_dump(action.to_dict()))
        assert parse_action(data) == action
        assert data["do"] == action.do and "by" in data
    assert Move(by="A", units=("a1",), to="bf1").to_dict() == {"by": "A", "do": "move", "units": ["a1"], "to": "bf1"}


def test_malformed_and_unknown_actions_are_refused_with_a_rule():
    game = GameState(BASIC)
    for bad in ({"by": "A", "do": "fly"}, {"by": "A", "do": "move", "units": ["a1"]}, ["move"]):
        with pytest.raises(Refusal) as refusal:
            game.push(bad)
        assert refusal.value.rule == "410"
    assert game.history == []


def test_legal_actions_lists_what_the_player_with_priority_may_do():
    game = GameState(BASIC)
    listed = [action.to_dict() for action in game.legal_actions()]
    assert {"by": "A", "do": "move", "units": ["a1"], "to": "bf1"} in listed
    assert {"by": "A", "do": "end_turn"} in listed
    assert all(action["by"] == "A" for action in listed)  # B has no Priority
    assert {"by": "A", "do": "pass"} not in listed  # 316.6: nothing to pass in a Neutral Open State
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "pass"})
    assert refusal.value.rule == "316.9"


def test_legal_actions_while_a_choice_is_pending_are_its_legal_answers():
    game = GameState(BASIC)
    attack(game)
    assert game.pending.kind == "assign"
    answers = [action.pick for action in game.legal_actions()]
    assert sorted(map(json.dumps, answers)) == sorted(map(json.dumps, [{"d1": 2, "d2": 2}]))
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 4}})
    assert refusal.value.rule == "465.2.c.4"


def _states(path: Path, limit: int = 6):
    """A library scenario's game after each of its first actions (the states a judge steps through)."""
    scenario, _ = schema.load(path)
    game = GameState(scenario.setup.model_dump(exclude_none=True))
    yield game
    for action in scenario.actions[:limit]:
        try:
            game.push(action.payload())
        except Refusal:
            continue
        yield game


@pytest.mark.parametrize("path", scenarios.library_paths()[::5], ids=lambda p: p.stem)
def test_every_listed_action_is_accepted_and_every_other_candidate_refused_with_its_rule(path):
    known = set()
    for line in (
        (ROOT / "corpus" / f"riftbound-core-rules-{kernel.RULES_VERSION}.txt").read_text(encoding="utf-8").splitlines()
    ):
        match = re.match(r"^(\d{3}(?:\.\w+)*)\.?\s", line)
        if match:
            known.add(match.group(1))
    for game in _states(path):
        before = (json.dumps(game.to_dict(), sort_keys=True, default=str), game.trace.count())
        listed = list(game.legal_actions())
        assert (json.dumps(game.to_dict(), sort_keys=True, default=str), game.trace.count()) == before
        for action in listed:
            game.push(action)
            game.pop()
        listed_keys = {json.dumps(a.to_dict(), sort_keys=True) for a in listed}
        for candidate in game.candidates():
            if json.dumps(candidate.to_dict(), sort_keys=True) in listed_keys:
                continue
            with pytest.raises(Refusal) as refusal:
                game.push(candidate)
            assert refusal.value.rule in known, f"{candidate.describe()}: refused citing {refusal.value.rule!r}"
        assert json.dumps(game.to_dict(), sort_keys=True, default=str) == before[0]


def test_pop_restores_the_previous_state_without_replaying():
    game = GameState(BASIC)
    boards = [game.to_dict()["board"]]
    attack(game, boards)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    steps_taken = game.budget.steps
    game.pop()
    assert game.budget.steps == steps_taken  # no engine step ran: the journal was rewound
    assert game.pending.kind == "assign" and game.to_dict()["board"] == boards[-1]
    for board in reversed(boards[:-1]):
        game.pop()
        assert game.to_dict()["board"] == board
    assert game.budget.steps == steps_taken and game.trace.roots == [] and game.history == []


def test_pop_and_push_again_give_the_same_trace():
    game = GameState(BASIC)
    actions = [
        {"by": "A", "do": "move", "units": ["a1"], "to": "bf1"},
        {"by": "A", "do": "pass"},
        {"by": "B", "do": "pass"},
    ]
    for action in actions:
        game.push(action)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    first = [step.to_dict() for step in game.trace.roots]
    game.pop()
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert [step.to_dict() for step in game.trace.roots] == first


def test_outcome_is_a_value():
    game = GameState(BASIC)
    outcome = game.outcome()
    assert outcome.winner is None and outcome.points == {"A": 0, "B": 0} and "A to act" in outcome.reason
    setup = {**BASIC, "players": {"A": {"points": 7, "base": [{"id": "a1", "card": "Test Unit", "might": 9}]}, "B": {}}}
    setup["battlefields"] = [
        {**BASIC["battlefields"][0], "units": [{"id": "d1", "card": "Test Defender", "controller": "B", "might": 2}]}
    ]
    game = GameState(setup)
    attack(game)
    assert game.outcome().winner == "A" and game.outcome().points["A"] == 8
    assert "Victory Score" in game.outcome().reason
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "B", "do": "end_turn"})
    assert refusal.value.rule == "472"


def test_a_runaway_replay_ends_with_the_limit_it_ran_into():
    path = next(p for p in scenarios.library_paths() if p.name.startswith("ruling-09-"))  # some 60 engine steps
    with pytest.raises(BudgetExceeded, match="max_steps"):
        replay_file(path, Budget(max_steps=10))
    game = GameState({**BASIC, "victory_score": 10**9}, Budget(seconds=0.0))
    with pytest.raises(BudgetExceeded, match="deadline of 0 s"):
        for _ in range(200):
            game.push({"by": "A", "do": "end_turn"})
            game.push({"by": "B", "do": "end_turn"})
    assert game.turn_player == ("A" if len(game.history) % 2 == 0 else "B")  # the state is whole: no half action


def test_a_trace_step_cites_why_it_happens_and_what_defines_it():
    game = GameState(BASIC)
    attack(game)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    steps = {step.procedure: step for _, step in game.trace.steps()}
    assert steps["deal"].because == ("465.2.d",) and "417.1.b" in steps["deal"].defines
    assert steps["deal"].change["d1"]["damage"] == [0, 2]
    assert steps["dies"].because == ("323.4", "323.5")


def test_a_pure_procedure_reads_only_its_arguments_so_its_steps_read_later_say_what_they_said_when_taken(
    monkeypatch,
):
    """A `pure=True` procedure's step is described when the trace is read; described as it is taken instead (every
    procedure made impure), every replay of the library must show exactly the same trace. A pure procedure whose
    summary, objects or cite read the game state would tell a later state, and fail here."""
    pure = sorted(name for name, proc in kernel.PROCEDURES.items() if proc.pure)
    assert {"cleanup_pass", "start_turn", "end_turn", "move", "draw"} <= set(pure)
    lazy = {path.name: [step.to_dict() for step in replay_file(path).steps] for path in scenarios.library_paths()}
    for name in pure:
        monkeypatch.setitem(kernel.PROCEDURES, name, dataclasses.replace(kernel.PROCEDURES[name], pure=False))
    for path in scenarios.library_paths():
        assert [step.to_dict() for step in replay_file(path).steps] == lazy[path.name], path.name


def _idle_cleanup(game) -> None:
    """A Cleanup run when none of its checks' watched attributes has changed and no trigger waits: what it does
    then is only what the Chain and the combat as they are now call for."""
    game.journal.changed = 0
    assert not game.triggered
    kernel.calc.cleanup(game, "a test", "319.2")


def test_a_cleanup_with_no_check_due_still_finalizes_a_pending_item_on_the_chain():
    """The Chain alone (nothing watched written, no trigger waiting) makes a Cleanup finalize its pending items
    (322.12): an early return that read the Chain as it was before, or not at all, leaves the item pending."""
    game = GameState(BASIC)
    item = ChainItem("trigger#1", "a test ability", ItemKind.TRIGGER, "a1", "A")
    game.chain = (item,)
    _idle_cleanup(game)
    assert not item.pending and item.targets == {}
    assert "finalize_pending" in [step.procedure for _, step in game.trace.steps()]


def test_a_cleanup_with_no_check_due_still_updates_the_combat_designations():
    """A combat alone (nothing watched written) makes a Cleanup update its designations (322.5): a unit at the
    combat's battlefield gains its controller's. An early return that passed over the combat leaves it without."""
    game = GameState(BASIC)
    game.combat = Combat("bf1", "A", "B")
    _idle_cleanup(game)
    assert [game.obj(unit).designation for unit in ("d1", "d2")] == [Role.DEFENDER, Role.DEFENDER]
    assert game.obj("a1").designation is None  # in its base, not at the combat's battlefield


def test_a_check_skipped_while_nothing_it_watches_changed_would_have_found_nothing(monkeypatch):
    """The cleanup's checks and a zone's cards are worked out again only when the journal's write path says that
    something they read has changed (`journal.watch`), and a Cleanup asks no check at all when none is due and
    nothing waits (`cleanup_pass`; the library's replays take both ways). With every check made due every time
    and every Cleanup running its checks (`run_checks`), every replay of the library must show exactly the same
    trace and outcome. A check watching too few attributes, or a Cleanup passing over a waiting trigger or a
    changed board, would fail here."""
    asked = []
    due = Journal.due
    monkeypatch.setattr(Journal, "due", lambda journal, bit: asked.append(bit) or due(journal, bit))
    kept = {path.name: replay_file(path) for path in scenarios.library_paths()}
    passes = sum(step.procedure == "cleanup_pass" for replay in kept.values() for _, step in replay.walk())
    full_passes = asked.count(cleanups.VICTORY_READS)  # a Cleanup that does not return early asks this once
    assert 0 < full_passes < passes  # both ways are taken in the runs compared below
    monkeypatch.setattr(Journal, "due", lambda journal, bit: True)
    every_check = dataclasses.replace(
        kernel.PROCEDURES["cleanup_pass"], fn=lambda game, _, special: cleanups.run_checks(game, special)
    )
    monkeypatch.setitem(kernel.PROCEDURES, "cleanup_pass", every_check)
    for path in scenarios.library_paths():
        always = replay_file(path)
        assert [step.to_dict() for step in always.steps] == [step.to_dict() for step in kept[path.name].steps]
        assert always.computed == kept[path.name].computed, path.name


def test_a_zones_cards_are_read_afresh_after_a_write_a_pop_and_a_new_object():
    setup = {**BASIC, "players": {**BASIC["players"], "B": {"deck": [{"id": "c1", "card": "Test Unit"}]}}}
    game = GameState(setup)
    assert [card.id for card in game.deck("B")] == ["c1"] and game.hand("B") == []
    game.push({"by": "A", "do": "end_turn"})  # B's Draw Phase draws c1
    assert game.deck("B") == [] and [card.id for card in game.hand("B")] == ["c1"]
    game.pop()
    assert [card.id for card in game.deck("B")] == ["c1"] and game.hand("B") == []
    game.obj("c1").zone = Zone.TRASH
    assert game.deck("B") == []
    game.add_object(Obj("c2", "Test Unit", "B", "B", Kind.UNIT, zone=Zone.HAND, order=-1))
    assert [card.id for card in game.hand("B")] == ["c2"]


def test_a_pure_procedure_step_is_described_from_the_arguments_it_was_taken_with():
    game = GameState(BASIC)
    game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
    records = game.trace.records
    assert records[0][0] is kernel.PROCEDURES["standard_move"]  # pure: kept as (procedure, arguments, ...)
    step = game.trace.roots[0]
    assert (step.summary, step.objects) == ("A standard-moves a1 to bf1", ["a1", "bf1"])
    assert step.rules == ["420.3", "144", "448"]


def test_a_resolution_is_freed_as_soon_as_it_is_dropped(monkeypatch):
    """A replay pauses the cyclic collector and hands what it made to the oldest generation (replay.py): what a
    replay drops must be freed by reference counting, so a resolution (made for every chain item and replacement)
    must not refer to itself through its point of view."""
    made = []
    resolution = kernel.QUERIES["resolution"]

    def kept(*args, **kwargs):
        run = resolution(*args, **kwargs)
        made.append(weakref.ref(run))
        return run

    monkeypatch.setitem(kernel.QUERIES, "resolution", kept)
    gc.disable()  # only reference counting frees anything during these replays
    try:
        replays = [replay_file(path) for path in scenarios.library_paths()]
        assert len(made) > 50 and [ref for ref in made if ref() is not None] == []
        assert all(replay.verdict == "match" for replay in replays)
    finally:
        gc.enable()


def test_a_dropped_replay_leaves_nothing_behind():
    """No cache of the engine keeps a game alive once its replay is dropped (a long game holds a large trace)."""
    replays = [replay_file(path) for path in scenarios.library_paths()]
    games = [weakref.ref(replay.state) for replay in replays]
    del replays
    gc.collect()
    assert [game for game in games if game() is not None] == []


def test_a_replay_leaves_what_a_served_worker_froze_frozen():
    """A served worker freezes what it warmed up, out of the collector's passes (datasette_plugins/warm_up.py); a
    dispute replayed later must not release it (the replay's own hand-off to the collector uses gc.unfreeze)."""
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        replay = replay_file(next(iter(scenarios.library_paths())))
        assert replay.verdict == "match" and gc.isenabled()
        # a frozen object that dies meanwhile (another test's cache entry) leaves the count, so it may drop by a few
        # (212,484 -> 212,481 seen once); an unfreeze would drop it to nothing
        assert gc.get_freeze_count() > frozen // 2
    finally:
        gc.unfreeze()  # the rest of the test run collects as it did


def test_a_view_with_legal_targets_is_a_value():
    """A view is a value type (objects.value): it hashes, and compares by its fields, legal targets included."""
    view = View("s1", "p1", "bf1", None, None, {"target": ["u1"]})
    assert hash(view) == hash(View("s1", "p1", "bf1", None, None, {"target": ["u1"]}))
    assert view == View("s1", "p1", "bf1", None, None, {"target": ["u1"]})
    assert view != View("s1", "p1", "bf1", None, None, {"target": ["u2"]})


def test_a_waiting_replacement_says_what_the_event_would_do_in_words():
    """A "next time it would ..." summary takes its verb from the event kind's registration: "would take damage",
    never the event's identifier ("would takes damage")."""
    replay = replay_file(next(p for p in scenarios.library_paths() if p.name.startswith("rules-10-")))
    summaries = [step.summary for _, step in replay.walk() if "the next time" in step.summary]
    assert summaries and all("would take damage, instead" in s for s in summaries), summaries
    assert all("_" not in kind.would for kind in kernel.EVENT_KINDS.values())


def test_a_delayed_ability_made_by_a_spell_in_the_trash_keeps_its_source():
    """A delayed ability's information is taken as it is made (359.3.f.3.a in Core Rules 1.4): its source in the
    trash (a spell that resolved) does not make it "gone", as it does an ability of a unit that died since."""
    game = GameState(BASIC)
    game.obj("a1").zone = Zone.TRASH
    event = Event("end_of_turn", player="A")

    def item(delayed: bool) -> ChainItem:
        instance = TriggerInstance("trigger#1", "a1", 0, None, "A", event, "a test ability", "390.2", delayed=delayed)
        return ChainItem("item#1", "a test ability", ItemKind.TRIGGER, "a1", "A", trigger=instance)

    assert not kernel.calc.source_gone(game, item(delayed=True), game.obj("a1"))
    assert kernel.calc.source_gone(game, item(delayed=False), game.obj("a1"))
    assert kernel.calc.targeting_of(game, item(delayed=False)).here is None


def test_a_lasting_situations_note_is_rewound_and_restored_with_the_trace():
    """What `standing_notes` remembers of a lasting situation follows the trace through an undone push (`pop`)
    and a redone one: a situation noted, or ended, after the mark is as it was at the mark once rewound."""
    from scenarios.trace import Tracer

    tracer = Tracer([])
    begun, ended = ("staged", "bf1"), ("contested_kept", "bf2")
    tracer.set_standing(ended, "kept Contested")
    tracer.records.append([None, ("cleanup", "contested_kept", "kept Contested", (), ()), "190.3.b", 0, 0, 0])
    mark = tracer.mark()  # between two actions: after the note's record
    tracer.set_standing(begun, "combat waits")
    tracer.set_standing(ended, None)
    dropped = tracer.rewind(mark)
    assert tracer.standing == {ended: "kept Contested"}
    tracer.restore(mark, dropped)
    assert tracer.standing == {begun: "combat waits"}


def test_every_keyword_the_rule_modules_read_by_name_is_registered():
    """The keywords a page offers come from the engine's registry (`kernel.KEYWORDS`): each keyword a rule module
    asks about by name is registered there, with the rule defining it; the summed ones carry a number."""
    import re
    from pathlib import Path

    from scenarios.kernel import KEYWORDS, load_rules

    load_rules()
    source = "\n".join(
        path.read_text() for path in (Path(__file__).resolve().parent.parent / "scenarios" / "rules").glob("*.py")
    )
    read = set(re.findall(r'(?:has_keyword|keyword_value)\([^()]*?"([A-Z][\w-]*)"\)', source))
    read |= set(re.findall(r'definition\.has\("([A-Z][\w-]*)"\)', source))
    assert read and read <= set(KEYWORDS), read - set(KEYWORDS)
    assert {name for name, k in KEYWORDS.items() if k.valued} == {"Assault", "Shield", "Deflect"}
    assert all(re.fullmatch(r"8\d\d(\.\w+)*", k.rule) for k in KEYWORDS.values())


def test_expect_observes_every_keyword_the_engine_registers():
    """What `expect: {unit: {keywords: ...}}` observes follows the registry (`kernel.KEYWORDS`): a keyword a rule
    module registers is observable without a list of its own to keep in step (Deflect was never in one)."""
    from scenarios.observe import OBJECT_FIELDS
    from scenarios.state import GameState

    assert {"Assault", "Shield", "Deflect"} <= set(kernel.KEYWORDS)
    unit = {"id": "u1", "card": "Test Unit", "keywords": {"Deflect": 2, "Assault": 1}}
    game = GameState({"turn": {"player": "A"}, "players": {"A": {"base": [unit]}, "B": {}}})
    assert OBJECT_FIELDS["keywords"](game, game.objects["u1"]) == {"Assault": 1, "Deflect": 2}
