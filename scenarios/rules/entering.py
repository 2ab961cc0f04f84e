"""How a permanent enters the board, ready or exhausted (359.2.c, 359.2.d), and the replacement effects that change
it (369.3): "I enter ready", "If an opponent controls a battlefield, I enter ready" (a conditional passive, 364.3.a),
"Other friendly units enter ready", "This enters exhausted", and the ones a resolving effect creates for the turn
("Units you play this turn enter ready": a delayed replacement, 390.3).

A unit enters exhausted (359.2.c) and a gear ready (359.2.d) unless a replacement effect replaces that event with
the other one (369.3: "The event of him entering exhausted is replaced by one where he enters ready"); it never
enters one way and then changes (805.6), so no "becomes ready" happens. The events are `enter_exhausted` and
`enter_ready`, and the replacement effects that apply are card data, `replacements: [{would: enter_exhausted, to:
{who: self}, condition: <word>, instead: []}]`, or `{op: replace_next, would: enter_exhausted, to: {who: friendly
unit}, once: false, instead: []}` for a turn. The entering card's own ("I enter ready") apply as it enters, as do
those of the permanents on the board; what `to` picks is read with the card where it will be (`location`).

The condition words it depends on are in `board_conditions.py`.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import EVENT_KINDS, Condition, calc, choose, do, event_kind, query, who
from scenarios.objects import BOARD, Event, Kind, Obj, View

event_kind("enter_exhausted", "369.3", would="enter the board exhausted")
who("token")(lambda game, view, subject: isinstance(subject, Obj) and subject.definition.type == "token")  # 185
event_kind("enter_ready", "369.3", would="enter the board ready")


def _candidates(game: Game, card, player: str, location: str, would: str):
    """The replacement effects of `would` that apply to `card` entering at `location`: (source, replacement,
    lasting) as `replacement.apply_replacement` takes them."""
    flt_zone = {"zone": str(card.zone)}  # read where it is now: it is about to be on the board at `location`
    own = [(card, r) for r in card.definition.replacements if r.would == would and r.to.who == "self"]
    board = [
        (source, r)
        for source in game.replacement_sources
        if source.zone == BOARD and source.id != card.id
        for r in source.definition.replacements
        if r.would == would and calc.ability_is_active(game, source, r.to)
    ]
    found = []
    for source, replacement in own + board:
        view = calc.view_of(game, source) if source.zone == BOARD else View(source.id, player, location)
        if not calc.matches_object(game, replacement.to.model_copy(update=flt_zone), view, card, location):
            continue
        if replacement.condition is not None:
            context = Condition(player if source is card else calc.ability_controller(game, source), source.id, True)
            label = replacement.label or source.card
            if not calc.decide_condition(
                game, replacement.condition, context, label, f"{card.id} {_ENTERS[would]}", "364.3.a"
            ):
                continue
        found.append((source.id, replacement, None))
    for lasting in game.lasting:
        replacement = lasting.replacement
        if replacement.would != would:
            continue
        view = View(lasting.source, lasting.controller, None, lasting.it, lasting.incarnation)
        if calc.matches_object(game, replacement.to.model_copy(update=flt_zone), view, card, location):
            found.append((lasting.source, replacement, lasting))
    return found


_ENTERS = {"enter_exhausted": "enters ready", "enter_ready": "enters exhausted"}


@query("entering_ready")
def entering_ready(game: Game, card, player: str, location: str, ready: bool) -> bool:
    """Does `card`, entering the board at `location` under `player`'s control, enter ready? A unit enters exhausted
    unless `ready` (Accelerate, 805.6), a gear ready (359.2.d); a replacement effect of that event makes it enter
    the other way (369.3), the one its controller chooses when several apply (372)."""
    if card.kind not in (Kind.UNIT, Kind.GEAR):
        return ready
    default = ready or card.kind == Kind.GEAR
    would = "enter_ready" if default else "enter_exhausted"
    options = _candidates(game, card, player, location, would)
    if not options:
        return default
    names = [source for source, _, _ in options]
    names = [name if names.count(name) == 1 else f"{name} #{i + 1}" for i, name in enumerate(names)]
    chosen = choose(
        game,
        "replacement",
        player,
        f"which replacement effect applies as {card.id} would {EVENT_KINDS[would].would}",
        names,
        "372",
    )
    source, replacement, lasting = options[names.index(chosen)]
    event = Event(would, unit=card.id, player=player, location=location)
    do.apply_replacement(game, source, replacement, lasting, event, len(options) > 1, because="369.3")
    return not default
