"""A condition on the object chosen, with what happens otherwise: "Choose an enemy unit. If it is stunned, kill it.
Otherwise, stun it." One `if_it` instruction (scenarios/rules/object_conditions.py): the state is checked as the
instruction executes (364.3.a), its `then` if it holds, its `else` (the "Otherwise" sentence) if not.

    if it is <state>, <instructions>     {op: if_it, it: <the object "it" names>, state, then}
    if it was an enemy unit, <instrs>    {op: if_it, it, state: "was enemy" | "was friendly", then}
    if it has N might or less, <instructions>   {op: if_amount, amount: might_of:<it>, at_most: N, then}
    if you control <condition>, <instrs>   {op: if, condition: <its word in `conditions`>, then} ("a <tag>",
                                         "a facedown card", "N or more/fewer runes")
    if you have N+ <units>, <instructions>   {op: if_amount, amount: {count: your units ...}, at_least: N, then}
    if you control N or more <objects>, <instructions>   the same, over what you control ("two or more gear")
    <instructions> if your units have all of the following tags among them — <tags>   {op: if, condition: <word>}
    if i'm at a battlefield, <instructions>  {op: if, condition: "at a battlefield"}; "there" in it is where I am
    <instructions> if it has N might or less   {op: if_amount, amount: might_of:<it>, at_most: N, then}
    if an enemy unit is alone here, <instructions>   {op: if_amount, amount: {count: enemy units here}, 1 to 1}
    you win the game                     {op: win_game} (195: an effect instructs them to win; rules/effect_wins.py)
    otherwise, <instructions>            the `else` of the `if` / `if_it` / `if_amount` the sentence before made
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD
from scenarios.card_reader.amounts import counted
from scenarios.card_reader.conditions import condition_word
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.phrases import Context, number, tag_list
from scenarios.rules.board_conditions import TAG_SETS, tags_word

_STATES = r"attacking|defending|\[empowered\]|stunned|buffed|\[mighty\]|an equipment|equipped"  # `if_it` knows


@template("if it is <state>", rf"if (?:it is|it's) (?P<s>{_STATES}), (?P<then>.+)")
def _if_it_is(m, ctx):
    """ "If it is stunned, kill it": about the object chosen before ("it"), checked as it executes (364.3.a)."""
    it = ctx.it
    if it not in ctx.targets:
        return None
    saved = dict(ctx.targets)
    then = instructions(m["then"], ctx, [])
    if then is None or ctx.targets != saved:  # what it does chooses nothing of its own
        return None
    return [{"op": "if_it", "it": it, "state": m["s"].strip("[]").removeprefix("an "), "then": then}]


@template("if it was an enemy unit", r"if it was an? (?P<side>enemy|friendly) unit, (?P<then>.+)")
def _if_it_was(m, ctx):
    """ "Kill a unit ... If it was an enemy unit, play a Gold gear token exhausted": whose the unit chosen before
    was, as it executes: its controller on the board, or as it last left it (359.3.e.14.b, `was enemy`)."""
    it = ctx.it
    if it not in ctx.targets or ctx.targets[it].get("type") != "unit" or ctx.targets[it].get("side"):
        return None  # a unit of either side, or the condition would be said of a side it can't be
    saved = dict(ctx.targets)
    then = instructions(m["then"], ctx, [])
    if not then or ctx.targets != saved:
        ctx.targets = saved
        return None
    return [{"op": "if_it", "it": it, "state": f"was {m['side']}", "then": then}]


@template(
    "if your units have all the tags",
    r"(?P<then>.+) if your units have all of the following tags among them \u2014 (?P<tags>.+)",
)
def _if_all_tags(m, ctx):
    """ "Score 1 point if your units have all of the following tags among them — Bird, Cat, Dog, and Poro": the
    condition word of that list (`board_conditions.TAG_SETS`, 133.8), checked as it executes (364.3.a)."""
    listed = tag_list(m["tags"])
    if listed is None or listed[1] != "and" or tuple(listed[0]) not in TAG_SETS:
        return None
    then = instructions(m["then"], ctx, [])
    return None if not then else [{"op": "if", "condition": tags_word(listed[0]), "then": then}]


@template("if it has N might or less", r"(?:then,? )?(?P<then>.+?) if it has (?P<n>\d+) might or (?P<side>less|more)")
@template("if it has N might or less", r"if it has (?P<n>\d+) might or (?P<side>less|more), (?P<then>.+)")
def _if_it_has_might(m, ctx):
    """ "If it has 3 [Might] or less, banish it" / "Then kill it if it has 3 [Might] or less": the Might of the unit
    chosen before, as it executes (364.3.a; null once it has left the board, 359.3.e.12, and the condition fails)."""
    it = ctx.it
    if it not in ctx.targets or ctx.targets[it].get("type") != "unit":
        return None
    saved = dict(ctx.targets)
    then = instructions(m["then"], ctx, [])
    if not then or ctx.targets != saved:
        ctx.targets = saved
        return None
    bound = "at_most" if m["side"] == "less" else "at_least"
    return [{"op": "if_amount", "amount": f"might_of:{it}", bound: int(m["n"]), "then": then}]


@template("if you control <condition>", r"if (?P<c>you control [^,]+), (?P<then>.+)")
def _if_you_control(m, ctx):
    """ "If you control a Poro, buff me and draw 1", "If you control 4 or fewer runes, deal 2 to all enemy units
    here": a condition of `conditions` (the Poro: a unit with the tag, 133.8; the runes on the board its controller
    controls, 105), checked as it resolves (364.3.a)."""
    word = condition_word(m["c"])
    saved = dict(ctx.targets)
    then = instructions(m["then"], ctx, []) if word else None
    if not then or ctx.targets != saved:  # a choice alone ("choose an enemy gear."): the rest is not inside it
        ctx.targets = saved
        return None
    return [{"op": "if", "condition": word, "then": then}]


@template("if you have N+ <units>", r"if you have (?P<n>\d+)\+ (?P<what>units(?: .+)?), (?P<then>.+)")
def _if_you_have_n(m, ctx):
    """ "If you have 7+ units here, you win the game": at least N of your units, counted as it resolves (364.3.a)."""
    flt = counted(f"your {m['what']}", ctx)
    then = instructions(m["then"], ctx, []) if flt is not None else None
    if then is None:
        return None
    return [{"op": "if_amount", "amount": {"count": flt}, "at_least": int(m["n"]), "then": then}]


@template(
    "if you have N+ <units>",
    r"if you control (?P<n>\d+|two|three|four|five) or more (?P<what>gear|units), (?P<then>.+)",
)
def _if_you_control_n(m, ctx):
    """ "If you control two or more gear, ready me": at least N of them, counted as it resolves (364.3.a)."""
    flt = counted(f"{m['what']} you control", ctx)
    then = instructions(m["then"], ctx, []) if flt is not None else None
    if then is None:
        return None
    return [{"op": "if_amount", "amount": {"count": flt}, "at_least": number(m["n"]), "then": then}]


@template(
    "if a unit is alone here",
    r"if (?:an? (?P<s>enemy|friendly) unit is alone|there's an? (?P<t>enemy|friendly) unit alone) here, (?P<then>.+)",
)
def _if_alone_here(m, ctx):
    """ "If an enemy unit is alone here, give me +2 [Might] this turn": exactly one unit of that side where I am,
    counted as it resolves (364.3.a)."""
    if ctx.me != "this" or ctx.card_type != "unit":
        return None
    then = instructions(m["then"], ctx, [])
    if then is None:
        return None
    alone = {"count": {"who": f"{m['s'] or m['t']} unit", "where": "here"}}
    return [{"op": "if_amount", "amount": alone, "at_least": 1, "at_most": 1, "then": then}]


@template("if i'm at a battlefield", r"(?:then, )?if (?:i'm|i am) at a battlefield, (?P<then>.+)")
def _if_at_a_battlefield(m, ctx):
    """ "Then, if I am at a battlefield, buff all other friendly units there": the source at a battlefield as it
    resolves (364.3.a); "there" is that battlefield, where I am (`here`)."""
    if ctx.me != "this" or ctx.card_type != "unit":
        return None
    then = instructions(re.sub(r" there\b", " here", m["then"]), ctx, [])
    return None if then is None else [{"op": "if", "condition": "at a battlefield", "then": then}]


@template("win the game", r"(?:you )?win the game")
def _win(m, ctx):
    """ "You win the game": an effect instructing its controller to win (195)."""
    return [{"op": "win_game"}]


def read_otherwise(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Otherwise, stun it": the sentence before was one condition without an else; this is its else."""
    found = re.fullmatch(r"otherwise, (?P<rest>.+?)\.?", sentence.strip())
    if found is None or len(before) != 1 or before[0].get("op") not in ("if", "if_it", "if_amount"):
        return None
    if "else" in before[0]:
        return None
    saved = (dict(ctx.targets), ctx.it)
    if before[0]["op"] == "if_it":
        ctx.it = before[0]["it"]  # "it" still names the object the condition was about
    otherwise = instructions(found["rest"], ctx, used)
    if otherwise is None or ctx.targets != saved[0]:
        ctx.targets, ctx.it = saved
        return None
    used.append("otherwise, <instructions>")
    return [{**before[0], "else": otherwise}]


INSTEAD.append(read_otherwise)
