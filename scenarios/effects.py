"""The instruction vocabulary of spells and abilities, executed top to bottom (356.3.d).

Each instruction is a mapping with an `op`. Objects are named by reference:
a target slot of the item ("target", "unit", ...), `this` (the source), `affected`
(the unit a replacement effect saved), `trigger_unit` (the unit the trigger is
about), `equipped` (the unit the source gear is attached to), or a group
(`all:enemy_units_here`, `all:enemy_units_at:<slot>`, `all:enemy_units`,
`all:banished_by_this`). Illegal targets are skipped (356.3.e.5) and impossible
instructions ignored (055).
"""

from __future__ import annotations

from scenarios import control, damage, movement, targeting
from scenarios.choices import ask
from scenarios.layers import explain, might, snapshot_modifier
from scenarios.trace import procedure


def resolve_refs(game, item, reference: str) -> list[str]:
    context = item.get("context", {})
    if reference in ("this", "self"):
        return [item["source"]]
    if reference == "affected":
        return [context["affected"]]
    if reference == "it":
        return [context["it"]] if context.get("it") else []
    if reference == "trigger_unit":
        return [context["unit"]] if context.get("unit") else []
    if reference == "equipped":
        gear = game.obj(item["source"])
        return [gear.attached_to] if gear.attached_to else []
    if reference.startswith("all:"):
        return _group(game, item, reference[4:])
    if reference in item.get("legal_targets", {}):
        return list(item["legal_targets"][reference])
    refs = item["targets"].get(reference, [])
    spec = item["target_specs"].get(reference)
    legal = []
    for r in refs:
        if isinstance(r, str) or spec is None or targeting.still_legal(game, r, spec, item):
            legal.append(r if isinstance(r, str) else r[0])
        else:
            game.trace.note(
                "effect",
                f"{r[0]} is no longer a legal target of {item['label']}: unaffected",
                ["356.3.e.2", "356.3.e.5"],
                [r[0]],
            )
    return legal


def _show(game, item, reference: str) -> str:
    """A reference as the objects it names, for trace summaries ("target" -> "d1")."""
    try:
        ids = resolve_refs(game, item, reference)
    except (KeyError, ValueError, IndexError):
        return reference
    return ", ".join(ids) if ids else f"{reference} (none)"


def _group(game, item, name: str) -> list[str]:
    controller = item["controller"]
    here = targeting._here(game, item)
    if name == "enemy_units_here":
        return [u.id for u in game.units(here) if u.controller != controller]
    if name.startswith("enemy_units_at:"):
        locations = resolve_refs(game, item, name.split(":", 1)[1])
        return [u.id for loc in locations for u in game.units(loc) if u.controller != controller]
    if name == "damaged_enemy_units_here":
        return [u.id for u in game.units(here) if u.controller != controller and u.damage > 0]
    if name == "enemy_units":
        return [u.id for u in game.units() if u.controller != controller]
    if name == "banished_by_this":
        return [o.id for o in game.objects.values() if o.zone == "banishment" and o.banished_by == item["source"]]
    raise ValueError(f"unknown group {name!r}")


def _amount(game, item, value) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.startswith("might_of:"):
        ids = resolve_refs(game, item, value.split(":", 1)[1])
        return might(game, game.obj(ids[0])) if ids else 0
    raise ValueError(f"unknown amount {value!r}")


def execute_all(game, item):
    """Targets are checked once, as the item begins to resolve (356.3.e.2), then kept for all its instructions."""
    item["legal_targets"] = {}
    item["legal_targets"] = {slot: resolve_refs(game, item, slot) for slot in item["targets"]}
    for instruction in item["effects"]:
        yield from execute(game, item, instruction)


def execute(game, item, instruction: dict):
    op = instruction["op"]
    handler = OPS.get(op)
    if handler is None:
        raise ValueError(f"unknown instruction {op!r}")
    result = handler(game, item, instruction)
    if hasattr(result, "send"):
        yield from result


# -- instructions ----------------------------------------------------------------------------------------


@procedure(
    "effect",
    "404",
    summary=lambda g, item, ins: f"{item['label']}: deal {ins['amount']} to {_show(g, item, ins['to'])}",
)
def op_deal(game, item, ins):
    ids = resolve_refs(game, item, ins["to"])
    amount = _amount(game, item, ins["amount"])
    if ids:
        damage.deal_many(
            game, {uid: amount for uid in ids if game.obj(uid).zone == "board"}, source=item["source"], rule="404.1.b"
        )


@procedure(
    "effect",
    "404",
    "404.6.b.3",
    summary=lambda g, item, ins: f"{item['label']}: the two units deal damage equal to their Might to each other",
)
def op_fight(game, item, ins):
    a = resolve_refs(game, item, ins["a"])
    b = resolve_refs(game, item, ins["b"])
    if not a or not b:
        game.trace.note("effect", "a unit is missing: nothing happens", ["055"])
        return
    ua, ub = game.obj(a[0]), game.obj(b[0])
    damage.deal_many(game, {ua.id: might(game, ub), ub.id: might(game, ua)}, source=item["source"], rule="404.1.d")


def op_kill(game, item, ins):
    ids = resolve_refs(game, item, ins["what"])
    units = [uid for uid in ids if game.obj(uid).kind == "unit" and game.obj(uid).zone == "board"]
    for uid in ids:
        if game.obj(uid).kind == "gear" and game.obj(uid).zone == "board":
            damage.kill_gear(game, uid)
    if units:
        yield from damage.kill_many(game, units, passive=False)


def op_heal(game, item, ins):
    ids = resolve_refs(game, item, ins["what"])
    if ids:
        damage.heal(game, ids, rule="405.1")


@procedure("effect", "402", summary=lambda g, item, ins: f"{item['label']}: ready {_show(g, item, ins['what'])}")
def op_ready(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        game.obj(uid).exhausted = False


@procedure("effect", "401", summary=lambda g, item, ins: f"{item['label']}: exhaust {_show(g, item, ins['what'])}")
def op_exhaust(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        game.obj(uid).exhausted = True


@procedure("effect", "410.1", summary=lambda g, item, ins: f"{item['label']}: stun {_show(g, item, ins['what'])}")
def op_stun(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        game.obj(uid).stunned = True


def op_recall(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        if game.obj(uid).zone == "board":
            movement.recall(game, uid, rule="433")


@procedure(
    "effect", "413.1", "703", summary=lambda g, item, ins: f"{item['label']}: buff {_show(g, item, ins['what'])}"
)
def op_buff(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        unit = game.obj(uid)
        if unit.buffs:
            game.trace.note("effect", f"{uid} already has a buff", ["413.1.b.1"], [uid])
        else:
            unit.buffs = 1


def op_spend_buff(game, item, ins):
    """Spend a buff from a unit the controller controls (702.2.b.2); `then` happens only if one was spent."""
    buffed = [u.id for u in game.units(controller=item["controller"]) if u.buffs]
    if not buffed:
        game.trace.note("effect", f"{item['label']}: no friendly unit has a buff to spend", ["702.2.b.1"])
        return
    pick = yield from ask(game, "spend_buff", item["controller"], "unit whose buff to spend", buffed, "702.2.b.2")
    _spend_buff(game, item, pick)
    for instruction in ins.get("then", []):
        yield from execute(game, item, instruction)


@procedure(
    "effect",
    "702.2.b",
    summary=lambda g, item, uid: f"{item['label']}: spend the buff of {uid}",
    objects=lambda g, item, uid: [uid],
)
def _spend_buff(game, item, unit_id):
    game.obj(unit_id).buffs -= 1


@procedure(
    "effect",
    "454.3",
    "454.3.b",
    summary=lambda g, item, ins: (
        f"{item['label']}: give {_show(g, item, ins['to'])} "
        f"{ins['amount']:+d} might this turn" + (f", to a minimum of {ins['minimum']}" if ins.get("minimum") else "")
    ),
)
def op_might(game, item, ins):
    for uid in resolve_refs(game, item, ins["to"]):
        unit = game.obj(uid)
        amount = snapshot_modifier(game, unit, ins["amount"], ins.get("minimum"))
        game.trace.note(
            "layer calculation",
            f"{uid} might before: {explain(game, unit)}; modifier fixed at "
            f"{amount:+d}" + (" (snapshot of the limit)" if amount != ins["amount"] else ""),
            ["454.3.b", "454.3.d"],
            [uid],
        )
        unit.modifiers.append({"amount": amount, "source": item["label"], "timestamp": game.tick(), "until": "turn"})


@procedure(
    "effect",
    "733.2",
    summary=lambda g, item, ins: (
        f"{item['label']}: give {_show(g, item, ins['to'])} [{ins['keyword']} {ins.get('value', 1)}]"
    ),
)
def op_grant(game, item, ins):
    for uid in resolve_refs(game, item, ins["to"]):
        game.obj(uid).granted.append(
            {"keyword": ins["keyword"], "value": ins.get("value", 1), "until": ins.get("until", "turn")}
        )


def op_move(game, item, ins):
    ids = [uid for uid in resolve_refs(game, item, ins["what"]) if game.obj(uid).zone == "board"]
    destination = ins["to"]
    if destination not in ("base",):
        if destination.startswith("location_of:"):
            refs = resolve_refs(game, item, destination.split(":", 1)[1])
            destination = game.obj(refs[0]).location if refs else None
        else:
            picked = item["targets"].get(destination, [])
            destination = (picked[0][0] if isinstance(picked[0], list) else picked[0]) if picked else None
    if not ids or destination is None:
        game.trace.note("effect", f"{item['label']}: nothing to move", ["055"])
        return
    movement.move(game, ids, destination, by=item["label"])
    if ins.get("ready"):
        op_ready(game, item, {"what": ins["what"]})


@procedure(
    "effect",
    "107.6.f",
    "109",
    summary=lambda g, item, ins: f"{item['label']}: return {ins['what']} to its owner's hand",
)
def op_return_to_hand(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        damage.leave_board(game, game.obj(uid), "hand")


@procedure(
    "effect", "400", summary=lambda g, item, ins: f"{item['label']}: {item['controller']} draws {ins.get('n', 1)}"
)
def op_draw(game, item, ins):
    player = item["controller"]
    for card in game.deck(player)[: ins.get("n", 1)]:
        card.zone = "hand"
        card.order = game.tick()


def op_discard(game, item, ins):
    player = item["controller"]
    for _ in range(ins.get("n", 1)):
        hand = [o.id for o in game.hand(player)]
        if not hand:
            return
        pick = yield from ask(game, "discard", player, "card to discard", hand, "409.1.a")
        _discard(game, item, pick)


@procedure("effect", "409.1", summary=lambda g, item, card: f"{item['controller']} discards {card}")
def _discard(game, item, card):
    game.obj(card).zone = "trash"


@procedure("effect", "412", summary=lambda g, item, ins: f"{item['label']}: counter {ins['what']}")
def op_counter(game, item, ins):
    for card_id in resolve_refs(game, item, ins["what"]):
        for other in list(game.chain):
            if other["card_obj"] == card_id:
                game.chain.remove(other)
                game.obj(card_id).zone = "trash"
                game.log["resolved"].append(f"{other['label']} [countered]")


def op_take_control(game, item, ins):
    for uid in resolve_refs(game, item, ins["what"]):
        control.take_control(game, uid, item["controller"])


@procedure(
    "effect", "383", "384", summary=lambda g, item, ins: f"{item['label']}: create a delayed trigger ({ins['event']})"
)
def op_delayed(game, item, ins):
    units = resolve_refs(game, item, ins["unit"]) if ins.get("unit") else [None]
    for uid in units:
        context = {"it": uid} if uid else {}
        game.delayed.append(
            {
                "event": ins["event"],
                "unit": uid if ins.get("unit") else None,
                "incarnation": game.obj(uid).incarnation if uid else None,
                "source": item["source"],
                "controller": item["controller"],
                "label": ins.get("label", f"{item['label']} (delayed)"),
                "effects": ins["effects"],
                "once": ins.get("once", True),
                "until": "turn",
                "context": context,
            }
        )


def op_banish(game, item, ins):
    by = item["source"] if ins.get("by") == "this" else None
    for uid in resolve_refs(game, item, ins["what"]):
        damage.banish(game, uid, by)


def op_banish_and_play(game, item, ins):
    from scenarios import playing

    for uid in resolve_refs(game, item, ins["what"]):
        unit = game.obj(uid)
        owner = unit.owner
        damage.banish(game, uid, None)
        yield from playing.play_by_effect(game, unit, owner, "base", source=item["label"])


def op_play_banished_by_this(game, item, ins):
    from scenarios import playing

    for uid in _group(game, item, "banished_by_this"):
        unit = game.obj(uid)
        yield from playing.play_by_effect(game, unit, item["controller"], "base", source=item["label"])


def op_reveal_play_unit(game, item, ins):
    """Reveal from the top of the deck until a unit; banish it while playing it; recycle the rest."""
    from scenarios import playing

    player = item["controller"]
    revealed = []
    for card in game.deck(player):
        revealed.append(card.id)
        if card.kind == "unit":
            game.trace.note("effect", f"{player} reveals {revealed}: {card.id} is a unit", ["411.1"], revealed)
            card.zone = "banishment"
            card.banished_by = item["source"]
            yield from playing.play_by_effect(game, card, player, "base", source=item["label"])
            break
    for other in revealed[:-1]:
        game.obj(other).order = game.tick() + 10_000  # recycled to the bottom (403)


@procedure(
    "effect",
    "421",
    "421.4",
    "744.2",
    summary=lambda g, item, ins: (
        f"{item['label']}: attach {_show(g, item, ins['what'])} to {_show(g, item, ins['to'])}"
    ),
)
def op_attach(game, item, ins):
    """421.1.f: attaching detaches from any previous unit; 421.4: the gear goes where the unit is (not a move)."""
    units = resolve_refs(game, item, ins["to"])
    gear_ids = resolve_refs(game, item, ins["what"])
    if not units or not gear_ids or game.obj(units[0]).zone != "board":
        return
    for gear_id in gear_ids:
        gear = game.obj(gear_id)
        gear.attached_to = units[0]
        gear.location = game.obj(units[0]).location


@procedure("effect", "417", summary=lambda g, item, ins: f"{item['label']}: channel {ins.get('n', 1)} rune exhausted")
def op_channel(game, item, ins):
    game.players[item["controller"]].runes += ins.get("n", 1)


def op_score(game, item, ins):
    from scenarios import scoring

    scoring.score_points(game, item["controller"], ins.get("n", 1), why=item["label"])


@procedure(
    "effect",
    "392.1",
    summary=lambda g, item, ins: f"{item['label']}: {item['controller']} pays {ins.get('energy', 0)} energy",
)
def op_pay(game, item, ins):
    """Only offered when affordable (see `affordable`), so paying never fails half-way through a resolution."""
    game.players[item["controller"]].energy -= ins.get("energy", 0)


def affordable(game, item) -> bool:
    """Can the controller pay every `pay` instruction of an optional ability ("you may pay ... to ...")?"""
    needed = sum(ins.get("energy", 0) for ins in item["effects"] if ins["op"] == "pay")
    return game.players[item["controller"]].energy >= needed


OPS = {
    "deal": op_deal,
    "fight": op_fight,
    "kill": op_kill,
    "heal": op_heal,
    "ready": op_ready,
    "exhaust": op_exhaust,
    "stun": op_stun,
    "recall": op_recall,
    "buff": op_buff,
    "might": op_might,
    "spend_buff": op_spend_buff,
    "grant": op_grant,
    "move": op_move,
    "return_to_hand": op_return_to_hand,
    "draw": op_draw,
    "discard": op_discard,
    "counter": op_counter,
    "take_control": op_take_control,
    "delayed": op_delayed,
    "banish": op_banish,
    "banish_and_play": op_banish_and_play,
    "play_banished_by_this": op_play_banished_by_this,
    "reveal_play_unit": op_reveal_play_unit,
    "attach": op_attach,
    "channel": op_channel,
    "score": op_score,
    "pay": op_pay,
}
