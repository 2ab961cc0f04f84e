"""The dispute builder: a scenario document edited one form at a time, and the engine asked what it allows next.

`edit` applies one form of the builder's page (a card added to a place, a battlefield, whose turn it is, an action
appended, the last one undone...) to a scenario's YAML and checks the result as the loader does; `legal` lists the
actions the rules allow after the scenario's actions, each in words; `attempt` tries one more action, typed as a
sentence or as YAML (rules_db.typed_actions), and says the rule that forbids it when one does. `legal` and
`attempt` run the engine: pages call them in the sandbox (rules_db.replay_worker). `builder_cards` is the one list
of the cards a judge may pick.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

import yaml

from ingest.card_names import load_aliases
from rules_db.card_readings import engine_cards
from rules_db.replay_view import Words, object_names, page_budget, parse_scenario, problem, words
from rules_db.typed_actions import MalformedAction, describe_action, folded, read_action
from rules_db.verdict import outcome_spec
from scenarios import schema
from scenarios.cards import load_library
from scenarios.kernel import KEYWORDS, BudgetExceeded, Refusal, load_rules
from scenarios.replay import replay_scenario
from scenarios.versions import NEWEST_VERSION


def legal(text: str, source: str) -> dict:
    """The actions the rules allow next, after a scenario's actions (the dispute builder offers these)."""
    try:
        scenario, _ = parse_scenario(text, source)
        replay = replay_scenario(scenario, source, page_budget())
    except (schema.ScenarioError, BudgetExceeded) as error:
        return {"error": problem(error), "actions": []}
    game = replay.state
    say = Words(object_names(game))
    try:  # listing them spends the same budget: "any number of" N objects is 2^N groups (355.13)
        actions = [action.to_dict() for action in game.legal_actions()]
    except BudgetExceeded as error:
        return {"error": problem(error), "actions": []}
    return {
        "error": None,
        "pending": game.pending.plain() if game.pending else None,
        "winner": game.winner,
        "mismatches": replay.mismatches,
        "actions": [{"action": action, "words": say(describe_action(action))} for action in actions],
        # every action of the scenario in words, an answered question (a damage assignment, an order) included
        "done": [
            {"action": a.typed.to_dict(), "words": say(describe_action(a.typed.to_dict()))} for a in scenario.actions
        ],
        "since": _last_action_start(scenario, source) if scenario.actions else None,
    }


def _last_action_start(scenario: schema.Scenario, source: str) -> int:
    """The number of the first step the scenario's last action made (the steps before it are those of the same
    scenario without it): what the page shows as what just happened."""
    before = replay_scenario(scenario.model_copy(update={"actions": scenario.actions[:-1]}), source, page_budget())
    return sum(1 for _ in before.state.trace.steps()) + 1


def verdict(view: dict) -> dict:
    """What a dispute's actions came to, from its view (`replay_view.view`, with every step's board): each
    difference between the starting board and the last one in the outcome a dispute is judged on
    (`verdict.outcome_spec`: a unit that died or moved, a battlefield's controller, a player's points, the
    winner), with the step that made it and its rules, and the
    latest answered question naming the same object before it (a damage assignment, a target): the choice that
    decided it."""
    steps = view.get("steps") or []
    if not steps or "board" not in steps[-1]:
        return {"rows": []}
    start, end = view["start"], steps[-1]["board"]
    kinds = {object_id: then["kind"] for object_id, then in start["objects"].items()}
    outcome = outcome_spec(kinds, [player["name"] for player in start["players"]])
    rows = []
    for object_id, then in start["objects"].items():
        now = end["objects"].get(object_id)
        if now is None or object_id not in outcome:  # an object the outcome does not look at (a spell, a rune)
            continue
        for field in outcome[object_id]:
            if then.get(field) != now.get(field) and (words := _OBJECT_CHANGES[field](then, now)):
                rows.append(_row([{"object": object_id}, {"text": f" {words}"}], steps, object_id, field))
                break
    for then, now in zip(start["players"], end["players"], strict=False):
        if then["points"] != now["points"]:
            points = f"{now['name']} has {now['points']} points (had {then['points']})"
            rows.append(_row([{"text": points}], steps, now["name"], "points"))
    if end.get("winner"):
        won = next((s for s in reversed(steps) if "wins" in s["summary"]), steps[-1])
        rows.append({"words": [{"text": f"{end['winner']} wins the game"}], "step": _step(won), "choice": None})
    return {"rows": sorted(rows, key=lambda row: row["step"]["number"])}


def _died(then: dict, now: dict) -> str:
    if then["zone"] == "board" and now["zone"] != "board":
        return "died" if now["zone"] == "trash" and now["kind"] == "unit" else f"left the board ({now['zone']})"
    if now["zone"] == "board":
        return f"entered the board ({now['location'] or now['zone']})"
    return f"went from the {then['zone']} to the {now['zone']}"  # a card drawn, discarded, recycled


def _moved(then: dict, now: dict) -> str | None:
    return f"moved to {now['location']}" if now["zone"] == "board" and now["kind"] == "unit" else None


def _controlled(then: dict, now: dict) -> str | None:
    if now["kind"] != "battlefield":
        return None
    return f"is controlled by {now['controller']}" if now["controller"] else "is controlled by nobody"


_OBJECT_CHANGES = {"zone": _died, "location": _moved, "controller": _controlled}  # each of verdict.OUTCOME_FIELDS


def _row(words: list[dict], steps: list[dict], subject: str, field: str) -> dict:
    """An outcome row: its words, the last step that changed the subject's field, and the latest choice naming
    the subject before it."""
    made = next(
        (
            s
            for s in reversed(steps)
            if field in (s.get("changed") or {}).get("objects", {}).get(subject, ())
            or field in (s.get("changed") or {}).get("players", {}).get(subject, ())
        ),
        steps[-1],
    )
    choice = next(
        (
            s
            for s in reversed(steps[: made["number"] - 1])
            if s["kind"] == "choice" and any(piece.get("object") == subject for piece in s["words"])
        ),
        None,
    )
    return {"words": words, "step": _step(made), "choice": _step(choice) if choice else None}


def _step(step: dict) -> dict:
    return {"number": step["number"], "words": step["words"], "rules": step["rules"]}


def attempt(text: str, source: str, action: dict) -> dict:
    """Try one more action after a scenario's actions: accepted, or refused with the rule that forbids it."""
    try:
        scenario, _ = parse_scenario(text, source)
        replay = replay_scenario(scenario, source, page_budget())
        typed = read_action(replay.state, action)
        replay.state.push(typed)
    except (schema.ScenarioError, BudgetExceeded, MalformedAction) as error:  # an engine's ValueError is a bug
        return {"error": problem(error)}
    except Refusal as refusal:
        names = object_names(replay.state)
        refused = {"rule": refusal.rule, "also": list(refusal.also), "words": words(refusal.message, names)}
        return {"error": None, "refused": refused}
    return {"error": None, "refused": None, "action": typed.to_dict()}


def dump(data: dict) -> str:
    """A scenario document as YAML (block style, keys in their order), for the builder and downloads."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)


def builder_cards() -> list[dict]:
    """Every card the engine can use, for the dispute builder's pickers and the names typed into them: the one
    list of them (a card the engine learns to read appears here, and in the builder, with nothing else changed)."""
    cards = engine_cards()
    hand = load_library()
    typed: dict[str, int] = {}
    for name in cards:
        typed[folded(name)] = typed.get(folded(name), 0) + 1
    return [
        {"name": name, "kind": card.object_kind, "might": card.might, "real": card.real, "text": card.text}
        for name, card in sorted(cards.items())
        # a read card a typed name cannot tell from another ("Recruit (DE)", "Recruit (NX)") is not offered
        if name in hand or typed[folded(name)] == 1
    ]


@cache
def _nicknames() -> dict[str, list[str]]:
    """Folded nickname -> the card names it stands for (judges' talk: "GA", "Zhonyas"; ingest/data's curated
    aliases, which the card pages use too)."""
    found: dict[str, list[str]] = {}
    for card, others in load_aliases().aliases.items():
        for other in others:
            found.setdefault(folded(str(other)), []).append(card)
    return found


def find_card(name: str, kinds: Collection[str]) -> dict:
    """The card of `builder_cards` a typed name names: its name or its printed card's, in any case and without
    punctuation ("darius executioner"), or a nickname; ValueError (naming the field) for none, or one of another
    kind."""
    cards = builder_cards()
    typed = folded(name)  # empty for a blank or punctuation-only name, which names no card
    if not typed:
        raise ValueError("Card: type a card's name (the list under the field offers every card the engine can use)")
    named = [c for c in cards if typed in (folded(c["name"]), folded(c["real"] or ""))]
    if not named:
        meant = {folded(card) for card in _nicknames().get(typed, [])}
        named = [c for c in cards if meant & {folded(c["name"]), folded(c["real"] or "")}]
    if not named:
        raise ValueError(f"Card: the engine does not model a card named “{name.strip()}” (pick one from the list)")
    fitting = [c for c in named if c["kind"] in kinds]
    if not fitting:
        card = named[0]
        raise ValueError(
            f"Card: {card['name']} is a {card['kind']} card; here the form needs a {' or '.join(sorted(kinds))}"
        )
    return fitting[0]


def unit_keywords() -> list[dict]:
    """The keywords a unit may be given (the engine's registry, `kernel.KEYWORDS`): each with its rule and whether
    it carries a number (Shield 2)."""
    load_rules()
    return [{"name": k.name, "rule": k.rule, "valued": k.valued} for k in sorted(KEYWORDS.values(), key=_name)]


def _name(keyword) -> str:
    return keyword.name


def _keyword(args: dict) -> tuple[str, int] | None:
    """The keyword a form gives a unit, and its number (1 when left blank: "Shield" is Shield 1); None for none."""
    typed = folded(str(args.get("keyword", "")))
    if not typed:
        return None
    load_rules()
    known = next((k for k in KEYWORDS.values() if folded(k.name) == typed), None)
    if known is None:
        raise ValueError(
            f"Keyword: the engine knows no keyword “{args['keyword']}” (it knows {', '.join(sorted(KEYWORDS))})"
        )
    raw = str(args.get("keyword_value", "")).strip()
    if not known.valued:
        return known.name, 1
    try:
        value = int(raw or 1)
    except ValueError:
        raise ValueError(f"Keyword: {known.name}'s number is a whole number, not “{raw}”") from None
    if value < 1:
        raise ValueError(f"Keyword: {known.name}'s number is at least 1 (a unit without it has none)")
    return known.name, value


# -- editing the scenario, one form at a time --------------------------------------------------------------------


def new_dispute(version: str = NEWEST_VERSION) -> str:
    """An empty dispute, judged under the Core Rules `version` (a page gives the newest its database holds)."""
    return dump(
        {
            "meta": {"id": "dispute", "title": "A new dispute"},
            "rules": {"core": version},
            "answer": "",
            "setup": {
                "turn": {"player": "A"},
                "players": {"A": {}, "B": {}},
                "battlefields": [{"id": "bf1", "card": "Neutral Ground"}],
            },
            "actions": [],
        }
    )


NEW_DISPUTE = new_dispute()
_PREFIX = {"unit": "u", "gear": "g", "spell": "s", "battlefield": "bf", "legend": "l", "rune": "r"}
_ZONES = ("hand", "deck", "trash")


def document(text: str) -> dict:
    """The scenario document a text holds (empty when it does not parse), for the builder's forms."""
    try:
        data, _ = schema.parse_text(text, "scenario", schema.PAGE_LIMITS)
    except schema.ScenarioError:
        return {}
    return data


def check_text(text: str, source: str) -> dict | None:
    """None when a scenario's text is valid, else its first problem with its line and field."""
    try:
        parse_scenario(text, source)
    except schema.ScenarioError as error:
        return problem(error)
    return None


def edit(text: str, source: str, op: str, args: dict) -> str:
    """The scenario after one builder form: `add` a card (to a base, a battlefield, a hand, deck or trash),
    `battlefield` (add one), `keyword` (give a unit a keyword, or take it away), `control` (who controls a battlefield, nobody included), `remove` an object, `turn`
    (whose turn it is), `score` (the Victory Score), `pool` (a player's points and Rune Pool), `rune` (a rune on the
    board, ready or exhausted), `title`, `append` an action (checked by the engine first: see `attempt`), `undo` the
    last action. ValueError names what is wrong."""
    data, _ = schema.parse_text(text, source, schema.PAGE_LIMITS)
    setup = data.setdefault("setup", {})
    players = setup.setdefault("players", {})
    if op == "add":
        _add_card(data, args)
    elif op == "battlefield":
        card = _card(args.get("card", ""), {"battlefield"})
        field = {"id": _free_id(data, "battlefield"), "card": card}
        if args.get("controller") in players:
            field["controller"] = args["controller"]
        setup.setdefault("battlefields", []).append(field)
    elif op == "keyword":
        _give_keyword(setup, args)
    elif op == "control":
        _set_controller(setup, players, args)
    elif op == "remove":
        if not _remove(setup, args.get("id", "")):
            raise ValueError(f"there is no {args.get('id')!r} to remove")
    elif op == "turn":
        setup.setdefault("turn", {})["player"] = _player(players, args)
    elif op == "score":
        _set_numbers(setup, args, ("victory_score",))
    elif op == "pool":
        _set_numbers(_player_setup(players, args), args, ("points", "energy", "power"))
    elif op == "rune":
        rune: dict = {"id": _free_id(data, "rune"), "card": _card(args.get("card", ""), {"rune"})}
        rune.update({"exhausted": True} if args.get("exhausted") else {})
        _player_setup(players, args).setdefault("runes", []).append(rune)
    elif op == "version":
        data["rules"] = {"core": str(args.get("version", "")).strip()}
    elif op == "title":
        data.setdefault("meta", {})["title"] = args.get("title", "").strip()[:200] or "A new dispute"
    elif op == "append":
        data.setdefault("actions", []).append(args["action"])
    elif op == "undo":
        if not data.get("actions"):
            raise ValueError("there is no action to undo")
        data["actions"].pop()
    else:
        raise ValueError(f"unknown form {op!r}")
    changed = dump(data)
    found = check_text(changed, source)
    if found:
        where = f"line {found['line']}, " if found["line"] else ""
        raise ValueError(f"{where}{found['field']}: {found['message']}")
    return changed


def _player(players: dict, args: dict) -> str:
    if args.get("player") not in players:
        raise ValueError(f"{args.get('player')!r} is not a player")
    return args["player"]


def _player_setup(players: dict, args: dict) -> dict:
    """The setup of the player a form names, made a mapping when the scenario left it empty (``B:``)."""
    player = _player(players, args)
    players[player] = players[player] or {}
    return players[player]


def _set_numbers(entry: dict, args: dict, fields: tuple[str, ...]) -> None:
    """The fields a form filled in, each a whole number (a field left blank keeps its value)."""
    for field in fields:
        if str(args.get(field, "")).strip():
            try:
                entry[field] = int(args[field])
            except ValueError:
                raise ValueError(f"{field.replace('_', ' ')} is a whole number, not {args[field]!r}") from None


def _card(name: str, kinds: set[str]) -> str:
    return find_card(name, kinds)["name"]


def _give_keyword(setup: dict, args: dict) -> None:
    """A keyword given to a unit already on the board (``keyword_value`` 0 takes it away)."""
    unit = _unit_entry(setup, str(args.get("id", "")))
    if str(args.get("keyword_value", "")).strip() == "0":
        given = _keyword({**args, "keyword_value": ""})
        if given:
            (unit.get("keywords") or {}).pop(given[0], None)
            if not unit.get("keywords"):
                unit.pop("keywords", None)
        return
    given = _keyword(args)
    if given is None:
        raise ValueError("Keyword: pick the keyword to give")
    unit.setdefault("keywords", {})[given[0]] = given[1]


def _unit_entry(setup: dict, object_id: str) -> dict:
    """The setup entry of a unit on the board (at a base or a battlefield)."""
    places = [player.get("base", []) for player in (setup.get("players") or {}).values() if player]
    places += [field.get("units", []) for field in setup.get("battlefields", [])]
    for entry in (entry for place in places for entry in place):
        if entry.get("id") == object_id and engine_cards()[entry["card"]].object_kind == "unit":
            return entry
    raise ValueError(f"Unit: there is no unit {object_id!r} on the board")


def _add_card(data: dict, args: dict) -> None:
    setup = data["setup"]
    player, where = args.get("player", ""), args.get("where", "base")
    if player not in setup["players"]:
        raise ValueError(f"{player!r} is not a player")
    mine = setup["players"][player] or {}
    setup["players"][player] = mine
    if where in _ZONES:
        card = _card(args.get("card", ""), {"unit", "gear", "spell", "legend"})
        kind = find_card(card, {"unit", "gear", "spell", "legend"})["kind"]
        mine.setdefault(where, []).append({"id": _free_id(data, kind), "card": card})
        return
    card = _card(args.get("card", ""), {"unit", "gear", "legend"} if where == "base" else {"unit"})
    kind = find_card(card, {"unit", "gear", "legend"})["kind"]
    entry: dict = {"id": _free_id(data, kind), "card": card}
    if kind == "legend":
        mine["legend"] = entry
        return
    _set_numbers(entry, args, ("might", "damage"))
    entry.update({flag: True for flag in ("exhausted", "stunned", "buff") if args.get(flag)})
    given = _keyword(args) if kind == "unit" else None
    if given:
        entry["keywords"] = {given[0]: given[1]}
    if where == "base":
        mine.setdefault("base", []).append(entry)
        return
    battlefield = next((f for f in setup.get("battlefields", []) if f.get("id") == where), None)
    if battlefield is None:
        raise ValueError(f"there is no battlefield {where!r}")
    units = battlefield.setdefault("units", [])
    if "controller" not in battlefield and all(unit.get("controller") == player for unit in units):
        battlefield["controller"] = player  # units alone at a battlefield in an open state control it (190.4 in 1.4)
    units.append({**entry, "controller": player})


def _set_controller(setup: dict, players: dict, args: dict) -> None:
    """A battlefield's controller as the judge sets it, "nobody" written as such (``controller: null``): a unit
    added there later no longer makes its player the controller (190.4), so a board mid-showdown can be built."""
    battlefield = next((f for f in setup.get("battlefields", []) if f.get("id") == args.get("id")), None)
    if battlefield is None:
        raise ValueError(f"there is no battlefield {args.get('id')!r}")
    battlefield["controller"] = _player(players, args) if args.get("player") else None


def _free_id(data: dict, kind: str) -> str:
    taken = schema.entry_ids(data.get("setup", {}))
    prefix = _PREFIX.get(kind, "c")
    return next(f"{prefix}{n}" for n in range(1, 10_000) if f"{prefix}{n}" not in taken)


def _remove(node, object_id: str) -> bool:
    """Remove the entry with this id (and what it carries) wherever it is in the setup."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if isinstance(value, dict) and value.get("id") == object_id and "card" in value:
                del node[key]
                return True
            if _remove(value, object_id):
                return True
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if isinstance(value, dict) and value.get("id") == object_id:
                del node[index]
                return True
            if _remove(value, object_id):
                return True
    return False
