"""Object and event filters: the words cards use to say which objects and events they care about.

`who` words pick objects or players relative to the card's point of view (a `View`): whole phrases ("self",
"you", "opponent", "equipped unit", "it") or a noun ("unit", "gear", "card", ...) with adjectives
("friendly", "enemy", "other", "another"). `where` words test a location relative to the card ("here",
"battlefield", "base", "battlefield you control", "other battlefield", "combat", or "at <target slot>").
Rules: 355.9.b (targeting restrictions), 383.2 (trigger conditions), 364 (passive abilities), 190.6.d ("you"
on a battlefield is its controller).
"""

from __future__ import annotations

import dataclasses

from scenarios.game import Game
from scenarios.kernel import WHERE, WHO, calc, condition, query, where, who
from scenarios.objects import BATTLEFIELD, BOARD, RUNE, Event, Kind, Obj, Role, View, Zone

SELF_WORDS = ("self", "me", "this", "i")


# -- who ------------------------------------------------------------------------------------------------------


@who("self")
def _self(game: Game, view: View, subject) -> bool:
    return isinstance(subject, Obj) and subject.id == view.source


@who("you")
def _you(game: Game, view: View, subject) -> bool:
    return isinstance(subject, str) and view.you is not None and subject == view.you


@who("opponent")
def _opponent(game: Game, view: View, subject) -> bool:
    return isinstance(subject, str) and view.you is not None and subject != view.you


@who("player")
def _player(game: Game, view: View, subject) -> bool:
    """Any player ("at end of turn": whoever's turn it is)."""
    return isinstance(subject, str)


PLAYER_WORDS = ("you", "opponent", "player")


@who("equipped unit")
def _equipped(game: Game, view: View, subject) -> bool:
    source = game.objects.get(view.source) if view.source is not None else None
    return isinstance(subject, Obj) and source is not None and source.attached_to == subject.id


@who("it")
def _it(game: Game, view: View, subject) -> bool:
    return (
        isinstance(subject, Obj)
        and subject.id == view.it
        and (view.it_incarnation is None or subject.incarnation == view.it_incarnation)
    )


def _of_kind(kind: Kind):
    return lambda game, view, subject: isinstance(subject, Obj) and subject.kind == kind


for _noun, _kind in (("unit", Kind.UNIT), ("gear", Kind.GEAR), ("spell", Kind.SPELL), ("legend", Kind.LEGEND)):
    who(_noun)(_of_kind(_kind))
    who(_noun + "s")(_of_kind(_kind))
who("card")(lambda game, view, subject: isinstance(subject, Obj))
# "all units and gear": the permanent types (133.4.a.2)
who("permanent")(lambda game, view, subject: isinstance(subject, Obj) and subject.kind in (Kind.UNIT, Kind.GEAR))
who("battlefield")(_of_kind(Kind.BATTLEFIELD))

_ADJECTIVES = {
    "friendly": lambda game, view, obj: view.you is not None and obj.controller == view.you,
    "enemy": lambda game, view, obj: view.you is not None and obj.controller != view.you,
    "other": lambda game, view, obj: obj.id != view.source,
    "another": lambda game, view, obj: obj.id != view.source,
}


@query("matches_who")
def matches_who(game: Game, view: View, phrase: str, subject) -> bool:
    if phrase in WHO:
        return WHO[phrase](game, view, subject)
    if phrase in SELF_WORDS:
        return _self(game, view, subject)
    *adjectives, noun = phrase.split()
    if noun not in WHO or not WHO[noun](game, view, subject):
        return False
    return all(_ADJECTIVES[word](game, view, subject) for word in adjectives)


# -- where ----------------------------------------------------------------------------------------------------


@where("here")
def _here(game: Game, view: View, location) -> bool:
    return location is not None and location == view.here


@where("battlefield")
def _battlefield(game: Game, view: View, location) -> bool:
    return game.is_battlefield(location)


@where("base")
def _base(game: Game, view: View, location) -> bool:
    return location == "base"


@where("battlefield you control")
def _your_battlefield(game: Game, view: View, location) -> bool:
    return game.is_battlefield(location) and game.objects[location].battlefield_controller == view.you


@where("other battlefield")
def _other_battlefield(game: Game, view: View, location) -> bool:
    return game.is_battlefield(location) and location != view.here


@where("combat")
def _combat(game: Game, view: View, location) -> bool:
    return game.combat is not None and location == game.combat.battlefield


@query("matches_where")
def matches_where(game: Game, view: View, phrase: str, location) -> bool:
    if phrase.startswith("at "):
        slot = phrase[3:]
        places = view.slots.get(slot, ()) if view.slots else ()
        return location in {
            game.objects[p].location if p in game.objects and not game.is_battlefield(p) else p for p in places
        }
    return WHERE[phrase](game, view, location)


# -- whole filters --------------------------------------------------------------------------------------------


@query("view_of")
def view_of(game: Game, source: Obj, it: str | None = None, it_incarnation: int | None = None, slots=None) -> View:
    """The point of view of `source`'s text: a battlefield's "you" is its controller (190.6.d), "here" is
    the battlefield itself; any other object's "you" is its controller and "here" its location."""
    if source.kind == BATTLEFIELD:
        return View(source.id, source.battlefield_controller, source.id, it, it_incarnation, slots)
    return View(source.id, source.controller, source.location, it, it_incarnation, slots)


@query("ability_controller")
def ability_controller(game: Game, source: Obj) -> str:
    """Who controls an ability of `source`: its controller (191.4.a); an uncontrolled battlefield's
    abilities are the turn player's to handle (190.6.b)."""
    if source.kind == BATTLEFIELD:
        return source.battlefield_controller or game.turn_player
    return source.controller


def _named_as_source(game: Game, view: View, subject: Obj) -> bool:
    """ "A card with this name": its card's name is that of the card whose text it is (132.1, 132.4)."""
    source = game.objects.get(view.source) if view.source is not None else None
    return (
        source is not None
        and source.definition is not None
        and subject.definition is not None
        and (subject.definition.name == source.definition.name)
    )


def _attached_this_turn(game: Game, view: View) -> bool:
    """ "If this was attached to me this turn": the source (136.2.d: "this" is the Equipment) was attached to the
    unit it is on during this turn (434.1; to the same unit again, nothing happened, 434.1.g)."""
    source = game.objects.get(view.source) if view.source else None
    return source is not None and bool(source.attached_to) and source.attached_turn == game.turn_number


def _early_turn(game: Game, player: str, most: int) -> bool:
    """ "During their first or second turn": it is `player`'s turn, one of the first `most` they have begun."""
    return game.turn_player == player and player in game.players and game.players[player].turns_taken <= most


@query("matches_object")
def matches_object(game: Game, flt, view: View, subject, location=None) -> bool:
    """Does `subject` (an object, or a player's name) pass the filter? `location` overrides where the
    subject is considered to be (an event's location)."""
    if not calc.matches_who(game, view, flt.who, subject):
        return False
    if isinstance(subject, str):
        if flt.own_turn_at_most is not None and not _early_turn(game, subject, flt.own_turn_at_most):
            return False
        return flt.where is None or calc.matches_where(game, view, flt.where, location)
    # "Your Equipment everywhere": in any zone (the hand, the deck, the trash, the board)
    zone = None if flt.zone == "anywhere" else Zone(flt.zone) if flt.zone else BOARD
    if zone is not None and subject.zone != zone:
        return False
    if flt.tag is not None and not calc.tagged(game, subject, flt.tag):  # 133.8: printed, or gained as it was played
        return False
    if flt.not_tag is not None and calc.tagged(game, subject, flt.not_tag):
        return False
    if flt.where is not None and not calc.matches_where(game, view, flt.where, location or subject.location):
        return False
    if flt.stunned is not None and subject.stunned != flt.stunned:
        return False
    if flt.damaged is not None and (subject.damage > 0) != flt.damaged:
        return False
    if flt.buffed is not None and (subject.buffs > 0) != flt.buffed:  # 702.2.a: buffed while a buff is on it
        return False
    if flt.exhausted is not None and subject.exhausted != flt.exhausted:  # ready or exhausted (414)
        return False
    if flt.keyword is not None and not calc.has_keyword(game, subject, flt.keyword):
        return False
    if flt.token is not None and (subject.definition is not None and subject.definition.type == "token") != flt.token:
        return False
    if flt.empowered is not None and subject.empowered != flt.empowered:  # "units that are [Empowered]" (828)
        return False
    if flt.named_as is not None and not _named_as_source(game, view, subject):
        return False
    if flt.attached_this_turn is not None and _attached_this_turn(game, view) != flt.attached_this_turn:
        return False
    if flt.max_might is not None and (subject.kind != Kind.UNIT or calc.might(game, subject) > flt.max_might):
        return False
    if flt.role is not None and subject.designation != Role(flt.role):
        return False
    if flt.alone and not _alone_in_its_role(game, subject):
        return False
    if flt.mighty is not None and calc.is_mighty(game, subject) != flt.mighty:
        return False
    if flt.less_might_than_me:
        source = game.objects.get(view.source) if view.source is not None else None
        if source is None or calc.might(game, subject) >= calc.might(game, source):
            return False
    return flt.banished_by is None or subject.banished_by == view.source


def _nth_of_its_type(game: Game, event: Event) -> int | None:
    """Which card of its type (unit, gear, spell) the card played is among those its player played this turn
    (419.4.a), this one counted; None for a token, played like a card but no card (185)."""
    played = game.players[event.player].played_this_turn if event.player in game.players else ()
    if event.card not in played:
        return None
    kind = game.objects[event.card].kind
    return [i for i in played if i in game.objects and game.objects[i].kind == kind].index(event.card) + 1


def _own_card(game: Game, view: View, event: Event) -> bool:
    """Is the event's card a card (052: a Main Deck card or a legend, never a token, 185, nor a rune, 161.1.a) that
    "you" own (127.1)?"""
    card = game.objects.get(event.card) if event.card else None
    if card is None or card.kind == RUNE or (card.definition is not None and card.definition.type == "token"):
        return False
    return card.owner == view.you


def _alone_in_its_role(game: Game, unit: Obj) -> bool:
    """The only unit of its controller attacking, or defending, at its location (364.3.a's "alone"); without a
    designation, the only one without."""
    return unit.zone == BOARD and all(u.designation != unit.designation for u in game.friendly_others(unit))


@condition("at a battlefield", "377.2.b")
def _source_at_a_battlefield(game: Game, context) -> bool:
    """ "Use this ability only while I'm at a battlefield": the condition on using it must be true (377.2.b)."""
    source = game.objects.get(context.source) if context.source else None
    return source is not None and source.zone == BOARD and game.is_battlefield(source.location)


@condition("alone", "364.3.a")
def _is_source_alone(game: Game, context) -> bool:
    """ "If I'm (I died) alone": no other friendly unit at its location (740.2.a in Core Rules 1.4), as noted when
    it died for its Deathknell (808.1.d.3), counting the friendly units that died with it."""
    if context.noted_company is not None:
        return not context.noted_company
    source = game.objects.get(context.source)
    if source is None or source.zone != BOARD:
        return False
    return not game.friendly_others(source)


def _one_on_one(game: Game, unit: Obj) -> bool:
    """740.2.b: it and the enemy unit at its location are both alone (740.2.a: no other friendly unit there)."""
    enemies = [u for u in game.units(unit.location) if u.controller != unit.controller]
    return not game.friendly_others(unit) and len(enemies) == 1 and not game.friendly_others(enemies[0])


def _card_played_matches(game: Game, flt, event: Event) -> bool:
    """The printed cost of what was played (206: "a spell that costs [5] or more" reads the printed cost, whatever
    was paid), or what was paid to play it ("if you spent [4] or more", 357.1)."""
    card = game.objects.get(event.card) if event.card else None
    if card is None or card.definition is None:
        return False
    definition = card.definition
    if flt.min_energy is not None and definition.energy < flt.min_energy:
        return False
    if flt.min_energy_paid is not None and card.energy_paid < flt.min_energy_paid:  # what was paid (357.1)
        return False
    return flt.min_power is None or definition.power >= flt.min_power


@query("matches_event")
def matches_event(game: Game, flt, view: View, event: Event, kinds: frozenset | None = None) -> bool:
    """Does `event` meet the event filter, read from `view`? `kinds` widens the event kinds it answers
    (a passive may make an ability trigger on other events too)."""
    if event.kind != flt.event and not (kinds and event.kind in kinds):
        return False
    if flt.actor:  # "a player chooses a friendly unit": friendly to that player (740.1.a), whoever controls the card
        view = dataclasses.replace(view, you=event.player)
    if flt.by is not None and not calc.matches_who(game, view, "you" if flt.by == "you" else "opponent", event.player):
        return False
    if flt.via is not None and event.via != flt.via:
        return False
    if flt.nth is not None and event.count != flt.nth:
        return False
    if flt.card_type is not None:
        card = game.objects.get(event.card) if event.card else None
        if card is None or card.kind != flt.card_type and flt.card_type != "card":
            return False
        if flt.card_type == "card" and card.definition.type == "token":
            return False
    played = flt.min_energy is not None or flt.min_power is not None or flt.min_energy_paid is not None
    if played and not _card_played_matches(game, flt, event):
        return False
    if flt.from_hidden is not None and (event.hidden_at is not None) != flt.from_hidden:  # 811
        return False
    if flt.uncontrolled is not None and event.uncontrolled != flt.uncontrolled:  # 190.4.c, before the conquer
        return False
    if flt.from_hand is not None and (event.played_from == Zone.HAND) != flt.from_hand:  # where it was played from
        return False
    if flt.own_card is not None and _own_card(game, view, event) != flt.own_card:
        return False
    if flt.nth_of_type is not None and _nth_of_its_type(game, event) != flt.nth_of_type:
        return False
    if flt.to_zone is not None and event.destination != flt.to_zone:  # where a permanent leaving the board went
        return False
    phrase = flt.who
    if phrase in SELF_WORDS:
        source = game.objects.get(view.source) if view.source is not None else None
        if source is None or not (event.unit == source.id or source.id in event.units):
            return False
        if flt.one_on_one and not _one_on_one(game, source):
            return False
        return flt.where is None or calc.matches_where(game, view, flt.where, event.location)
    if phrase in PLAYER_WORDS:
        return event.unit is None and calc.matches_object(game, flt, view, event.player, event.location)
    # An event of several units (a conquer or hold: the units there) meets the filter when one of them does: "when
    # I conquer" on an equipment is its equipped unit's conquer, whoever conquered with it.
    subjects = [event.unit] if event.unit else list(event.units)
    return any(
        (subject := game.objects.get(unit)) is not None
        and calc.matches_object(game, flt, view, subject, event.location)
        for unit in subjects
    )
