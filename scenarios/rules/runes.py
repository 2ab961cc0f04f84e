"""Runes 160-168, Add 429, Channel 430 and the Channel Phase 315.3.

Runes are kept in the Rune Deck (161.2) and channeled onto the board, into their controller's base (105,
430.1): ready, unless the effect that channels them says otherwise (430.2). They are not permanents and not
cards for card effects (052, 161.1.a). A Basic Rune has two abilities (164.2): "[E]: [Reaction] — Add [1]"
and "Recycle this: [Reaction] — Add [C]" (Power of the rune's domain, 164.2.b.1); they are card data in
cards.yaml. An ability that Adds resolves at once, without the Chain (400.2, 429.2). Added Energy and Power
go to the Rune Pool (166.1), which empties as the Draw Phase ends and at the end of each turn (167).

In the Channel Phase the turn player channels 2 runes from their Rune Deck, or as many as it holds
(315.3.b, 315.3.b.1). The first turn's extra rune for the player going second (485.7) belongs to the setup of a
game, which scenarios start after.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, note, procedure, query
from scenarios.objects import RUNE, RUNE_DECK, Zone
from scenarios.trace import StepKind

CHANNEL_PHASE_RUNES = 2  # 315.3.b


@query("rune_deck")
def rune_deck(game: Game, player: str) -> list:
    return game.cards_in(RUNE_DECK, player)


@query("runes_on_board")
def runes_on_board(game: Game, player: str) -> list:
    return [o for o in game.objects.values() if o.kind == RUNE and o.zone == Zone.BOARD and o.controller == player]


def _channeled(game: Game, player, n, label, exhausted) -> str:
    return f"{label}: {player} channels {n} rune(s)" + (" exhausted" if exhausted else "")


@procedure(
    "channel",
    StepKind.EFFECT,
    defines=("430.1",),
    summary=_channeled,
    objects=lambda g, player, n, label, exhausted: [player],
    cite=lambda g, player, n, label, exhausted: ["430.2"] if exhausted else [],
    pure=True,
)
def channel(game: Game, player: str, n: int, label: str, exhausted: bool) -> None:
    """Take the top `n` runes of the Rune Deck onto the board (as many as there are, 315.3.b.1)."""
    deck = rune_deck(game, player)
    if len(deck) < n:
        note(
            game,
            StepKind.EFFECT,
            "channel short",
            f"{player}'s Rune Deck holds {len(deck)} rune(s): channels as many as possible",
            "315.3.b.1",
            objects=[player],
        )
    for rune in deck[:n]:
        rune.zone, rune.location, rune.controller = Zone.BOARD, "base", player  # 105, 191.3
        rune.exhausted = exhausted
        rune.timestamp = game.tick()


@procedure(
    "channel_phase",
    StepKind.TURN,
    defines=("315.3.b",),
    summary=lambda g, player: f"Channel Phase: {player} channels {_channels(_channel_phase_runes(g, player))}",
    objects=lambda g, player: [player],
)
def channel_phase(game: Game, player: str) -> None:
    game.phase = "channel"
    n = _channel_phase_runes(game, player)
    do.channel(
        game, player, n, "Channel Phase", False, because="315.3.b" if n == CHANNEL_PHASE_RUNES else ("315.3.b", "364.1")
    )


def _channels(n: int) -> str:
    return "1 rune" if n == 1 else f"{n} runes"


def _channel_phase_runes(game: Game, player: str) -> int:
    """2 (315.3.b), or 1 while a passive says the player "only channel 1 rune" then (364.1)."""
    return 1 if calc.restricted_by(game, player, "channel_one_rune") else CHANNEL_PHASE_RUNES


def _added(game: Game, player, energy, power, domain, label) -> str:
    parts = [f"{energy} energy" if energy else "", f"{power} {domain or 'any-domain'} power" if power else ""]
    return f"{label}: {player} adds " + " and ".join(p for p in parts if p) + " to the Rune Pool"


@procedure(
    "add",
    StepKind.EFFECT,
    defines=("429.1", "166.1"),
    summary=_added,
    objects=lambda g, player, *a: [player],
)
def add(game: Game, player: str, energy: int, power: int, domain: str | None, label: str) -> None:
    calc.add_to_pool(game, player, energy, power, domain)


@instruction("add")
def op_add(game: Game, run, ins) -> None:
    """`{op: add, energy: 1}`, `{op: add, power: 1, domain: own}` ([C]: the source's domain, of any domain
    when it has none or several, 135.2.e.6.b) or `domain: Fury`; no domain is Power of any domain ([A])."""
    domain = ins.get("domain")
    if domain == "own":
        source = game.objects.get(run.item.source)
        domains = source.definition.domains if source is not None else []
        domain = domains[0] if len(domains) == 1 else None
    player = run.item.controller
    if ins.get("only"):  # "Use only to play spells": held apart, paying only those costs (`restricted_resources`)
        energy, power = ins.get("energy", 0), ins.get("power", 0)
        do.add_restricted(game, player, energy, power, domain, ins["only"], run.item.label, because=run.because)
        return
    do.add(game, player, ins.get("energy", 0), ins.get("power", 0), domain, run.item.label, because=run.because)


@instruction("channel")
def op_channel(game: Game, run, ins) -> None:
    """ "Channel N rune(s) [exhausted]" (430.5)."""
    player = run.item.controller
    do.channel(game, player, ins.get("n", 1), run.item.label, bool(ins.get("exhausted")), because=run.because)


@instruction("recycle_rune")
def op_recycle_rune(game: Game, run, ins) -> None:
    """ "You must recycle one of your runes": an instruction a player "must" complete targets nothing; its controller
    chooses one of their runes on the board as it resolves (355.10.f, with this text as its example) and recycles
    it to the bottom of their Rune Deck (416.1.b); with no rune there is nothing to recycle (416.4)."""
    player = run.item.controller
    runes = sorted(r.id for r in runes_on_board(game, player))
    if not runes:
        calc.impossible(game, run, f"{player} has no rune to recycle", "416.4")
        return
    rune = (
        runes[0]
        if len(runes) == 1
        else choose(game, "rune", player, f"{run.item.label}: a rune to recycle", runes, "355.10.f")
    )
    do.recycle(game, [rune], run.item.label, because=run.because)


@instruction("ready_runes")
def op_ready_runes(game: Game, run, ins) -> None:
    """ "Ready N runes" (415.3.b): N of the player's exhausted runes, chosen as it resolves (355.17); `all`: "Ready
    your runes", every one of them (nothing chosen, 355.10.d)."""
    player = run.item.controller
    exhausted = sorted(r.id for r in runes_on_board(game, player) if r.exhausted)
    wanted = len(exhausted) if ins.get("all") else ins.get("n", 1)
    picked: list[str] = []
    while exhausted and len(picked) < wanted:
        rune = (
            exhausted[0]
            if len(exhausted) <= wanted - len(picked)
            else choose(game, "rune", player, f"{run.item.label}: a rune to ready", exhausted, "355.17")
        )
        picked.append(rune)
        exhausted.remove(rune)
    if picked:
        do.ready(game, picked, run.item.label, because=run.because)
    else:
        calc.impossible(game, run, f"{player} has no exhausted rune to ready")
