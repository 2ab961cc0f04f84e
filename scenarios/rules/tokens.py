"""Tokens (179-187): "Play a 1 [M] Recruit unit token here", "Play a Gold gear token exhausted". A token is a Game
Object created by a spell or ability (180), not a card (185), controlled and owned by the controller of the effect
that made it (182, 183), and played like a card of its type (185.2.a, 350.2). A unit token enters exhausted
(359.2.c) unless the effect says it enters ready (184.1), at the location the effect gives (184.2), or else one
its controller chooses among their base and the battlefields they control (355.2.a); a gear token enters ready at
its controller's base (359.2.d) unless the effect says exhausted (184.1). It has no cost and no domain (185.3);
the kinds cards create are defined by 187 (`token_kinds.UNIT_TOKENS`, with the Might the instruction prints, and
`token_kinds.GEAR_TOKENS`). Battlefield tokens are not modelled.

`{op: play_token, token: recruit, might: 1, n: 2, to: here | base, ready: true, keywords: {Temporary: 1}}`,
`{op: play_token, token: gold, n: 2, exhausted: true}`; `n` may be a quantity ("Play a 2 [M] Sand Soldier unit token
for each Equipment you control", scenarios/rules/amounts.py).
"""

from __future__ import annotations

from scenarios.cards import Card
from scenarios.game import Game
from scenarios.kernel import calc, choose, do, event_kind, instruction
from scenarios.objects import Event, Kind, Obj, Zone
from scenarios.token_kinds import GEAR_TOKENS, UNIT_TOKEN_ABILITIES, UNIT_TOKENS

event_kind("play_token_unit", "185.2.a", would="play a token unit")


def token_definition(kind: str, might: int = 0, keywords: dict[str, int] | None = None, ready: bool = False) -> Card:
    """The definition of a token of `kind` (187): a unit token with `might`, the keywords the effect gives it
    (184.3) and whether it enters ready (184.1); or a gear token as 187 defines it."""
    if kind in GEAR_TOKENS:
        return Card.model_validate(GEAR_TOKENS[kind][0])
    name, tags, innate, _ = UNIT_TOKENS[kind]
    abilities = dict(UNIT_TOKEN_ABILITIES.get(kind, {}))  # "... with 'When I attack, ...'" (187.11)
    text = f"a {might} Might {name} unit token (187)"
    return Card.model_validate(
        {
            "name": name,
            "real": name,
            "type": "token",
            "might": might,
            "tags": list(tags),
            "keywords": {**innate, **(keywords or {})},
            "enters_ready": ready,
            **abilities,
            "text": f"{text}: {abilities['text']}" if "text" in abilities else text,
        }
    )


def _location(game: Game, run, ins, player: str, definition: Card) -> str | None:
    where = ins.get("to")
    if where == "base" or definition.object_kind == "gear":  # 359.2.d: gear enters at its controller's base
        return "base"
    if where == "here":  # where the source is (359.3.f.2), or was as its own death triggered (808.1.d.3)
        return calc.targeting_of(game, run.item).here
    if where == "trigger_location":  # "there": where its trigger's event happened, noted as it triggered (359.3.f.3)
        event = run.item.trigger.event if run.item.trigger is not None else None
        place = event.location if event is not None else None
        return place if place == "base" or (place is not None and game.is_battlefield(place)) else None
    if run.item.hidden_at is not None:  # played by a hidden spell or a hidden permanent's play effect (811.1.d.3)
        return calc.hidden_play_location(game, run.item)
    options = ["base"] + [bf.id for bf in game.battlefields() if bf.battlefield_controller == player]
    return choose(game, "token_location", player, "the location the token is played to", options, "355.2.a")


@instruction("play_token")
def op_play_token(game: Game, run, ins) -> None:
    player, label = run.item.controller, run.item.label
    kind = ins["token"]
    rule = GEAR_TOKENS[kind][1] if kind in GEAR_TOKENS else UNIT_TOKENS[kind][3]
    definition = token_definition(kind, ins.get("might", 0), ins.get("keywords"), bool(ins.get("ready")))
    n = calc.amount(game, run, ins.get("n", 1))  # "for each Equipment you control": counted now (359.3.f.2)
    if n is None:
        calc.impossible(game, run, "the number is null: no token is played", "359.3.e.12")
        return
    for _ in range(n):
        where = _location(game, run, ins, player, definition)
        if where is None:  # "here" of a source no longer anywhere: nowhere to play it (359.3.e.12)
            return
        for _copy in range(_copies(game, player, where, definition)):
            _play_one(game, run, ins, player, where, definition, rule, label)


def _copies(game: Game, player: str, where: str, definition: Card) -> int:
    """How many of the token are played: one, unless a replacement effect modifies the play of a token unit
    ("play that token and an additional copy of it instead", 370.1.b) or replaces it."""
    if definition.object_kind != "unit":
        return 1
    event = Event("play_token_unit", player=player, location=where, card=definition.name, amount=1)
    modified = calc.replaced(game, event)
    return 0 if modified is None else modified.amount


def _play_one(game: Game, run, ins, player: str, where: str, definition: Card, rule: str, label: str) -> None:
    """One token played (185.2.a) where `where` says."""
    token = game.add_object(
        Obj(
            id=game.new_id(definition.name.lower().replace(" ", "-")),
            card=definition.name,
            owner=player,  # 183
            controller=player,  # 182
            kind=Kind(definition.object_kind),
            zone=Zone.CHAIN,  # created as it is played (186)
            might_base=definition.might,
            definition=definition,
        )
    )
    exhausted = bool(ins.get("exhausted"))  # "play a Gold gear token exhausted": it enters exhausted (184.1)
    do.play_by_effect(game, token, player, where, label, "cost", exhausted, because=(rule, "185.2.a", "184"))
    if ins.get("as"):  # "... Then do this: ready it": what later instructions name the token played by
        run.legal[ins["as"]] = [*run.legal.get(ins["as"], ()), token.id]
