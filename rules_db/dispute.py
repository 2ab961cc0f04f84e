"""The dispute builder: a scenario document edited one form at a time, and the engine asked what it allows next.

`edit` applies one form of the builder's page (a card added to a place, a battlefield, whose turn it is, an action
appended, the last one undone...) to a scenario's YAML and checks the result as the loader does; `legal` lists the
actions the rules allow after the scenario's actions, each in words; `attempt` tries one more action, typed as a
sentence or as YAML (rules_db.typed_actions), and says the rule that forbids it when one does. `legal` and
`attempt` run the engine: pages call them in the sandbox (rules_db.replay_worker). `builder_cards` is the one list
of the cards a judge may pick.
"""

from __future__ import annotations

import yaml

from rules_db.replay_view import Words, object_names, page_budget, problem, words
from rules_db.typed_actions import MalformedAction, describe_action, folded, read_action
from scenarios import schema
from scenarios.cards import load_library
from scenarios.kernel import BudgetExceeded, Refusal
from scenarios.replay import replay_scenario
from scenarios.versions import NEWEST_VERSION


def legal(text: str, source: str) -> dict:
    """The actions the rules allow next, after a scenario's actions (the dispute builder offers these)."""
    try:
        scenario, _ = schema.parse(text, source, schema.PAGE_LIMITS)
        replay = replay_scenario(scenario, source, page_budget())
    except (schema.ScenarioError, BudgetExceeded) as error:
        return {"error": problem(error), "actions": []}
    game = replay.state
    say = Words(object_names(game))
    actions = [action.to_dict() for action in game.legal_actions()]
    return {
        "error": None,
        "pending": game.pending.plain() if game.pending else None,
        "winner": game.winner,
        "mismatches": replay.mismatches,
        "actions": [{"action": action, "words": say(describe_action(action))} for action in actions],
    }


def attempt(text: str, source: str, action: dict) -> dict:
    """Try one more action after a scenario's actions: accepted, or refused with the rule that forbids it."""
    try:
        scenario, _ = schema.parse(text, source, schema.PAGE_LIMITS)
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
    """Every card the engine models, for the dispute builder's pickers."""
    return [
        {"name": name, "kind": card.object_kind, "might": card.might, "real": card.real, "text": card.text}
        for name, card in sorted(load_library().items())
    ]


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
        schema.parse(text, source, schema.PAGE_LIMITS)
    except schema.ScenarioError as error:
        return problem(error)
    return None


def edit(text: str, source: str, op: str, args: dict) -> str:
    """The scenario after one builder form: `add` a card (to a base, a battlefield, a hand, deck or trash),
    `battlefield` (add one), `control` (who controls a battlefield, nobody included), `remove` an object, `turn`
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
    library = load_library()
    typed = folded(name)  # empty for a blank or punctuation-only name, which names no card
    card = library.get(name) or next(
        (c for c in library.values() if typed and typed in (folded(c.name), folded(c.real or ""))), None
    )
    if card is None:
        raise ValueError(f"the engine does not model a card named {name!r} (its cards are listed in the form)")
    if card.object_kind not in kinds:
        raise ValueError(
            f"{card.name} is a {card.object_kind} card; here the form needs a {' or '.join(sorted(kinds))}"
        )
    return card.name


def _add_card(data: dict, args: dict) -> None:
    setup = data["setup"]
    player, where = args.get("player", ""), args.get("where", "base")
    if player not in setup["players"]:
        raise ValueError(f"{player!r} is not a player")
    mine = setup["players"][player] or {}
    setup["players"][player] = mine
    if where in _ZONES:
        card = _card(args.get("card", ""), {"unit", "gear", "spell", "legend"})
        mine.setdefault(where, []).append({"id": _free_id(data, load_library()[card].object_kind), "card": card})
        return
    card = _card(args.get("card", ""), {"unit", "gear", "legend"} if where == "base" else {"unit"})
    kind = load_library()[card].object_kind
    entry: dict = {"id": _free_id(data, kind), "card": card}
    if kind == "legend":
        mine["legend"] = entry
        return
    _set_numbers(entry, args, ("might", "damage"))
    entry.update({flag: True for flag in ("exhausted", "stunned", "buff") if args.get(flag)})
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
