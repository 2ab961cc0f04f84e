"""Modal text: "Choose one — • <mode> • <mode>" (355.3): one of a bulleted list of modes, chosen as the spell is
played or the ability is put on the Chain (402.2), its targets with it. Read into a `mode` choice slot and
`{op: mode, modes: [...]}` (scenarios/rules/modes.py); each mode's own target slots are marked with its number,
so only the chosen mode's targets are chosen. Every mode must read in full, or the sentence is refused. "X or Y"
unbulleted is a choice made as it resolves (355.17). "If you do, ..." after an instruction is linked to it
(359.3.e.14.b): executed only if its game action was performed ("if you can't": only if it was not).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.phrases import Context, reference

_MODE_SPLIT = re.compile(r"\s*•\s*")
_SENTENCE = re.compile(r"(?<=\.)\s+")


@template(
    "choose one",
    r"choose one(?P<turn> you've not chosen this turn| that hasn't been chosen this turn)?"
    r"(?P<item> you haven't already chosen)? — (?P<modes>•.+)",
)
def _choose_one(m, ctx):
    """ "Choose one you've not chosen this turn —": the modes this ability chose this turn are not offered; "Choose
    one you haven't already chosen —": each execution of a repeated spell chooses a different mode (820.2)."""
    modes = [part.strip() for part in _MODE_SPLIT.split(m["modes"]) if part.strip()]
    return _modes(modes, ctx, "turn" if m["turn"] else "item" if m["item"] else None)


@template("choose one", r"choose one to give (?P<obj>me|it) this turn — (?P<modes>•.+)")
def _choose_one_to_give(m, ctx):
    """ "Choose one to give me this turn — • [Assault 2] • [Deflect 2]": each mode is "give me <keyword> this turn"."""
    modes = [part.strip().rstrip(".") for part in _MODE_SPLIT.split(m["modes"]) if part.strip()]
    if not all(re.fullmatch(r"\[[a-z-]+(?: \d+)?\]", mode) for mode in modes):
        return None
    return _modes([f"give {m['obj']} {mode} this turn" for mode in modes], ctx, None)


def _modes(modes: list[str], ctx, not_chosen: str | None):
    """The mode choice and `{op: mode}` of a list of modes, each read in full, or None."""
    if "mode" in ctx.targets or len(modes) < 2:  # one list of modes per ability; one mode is no choice
        return None
    ctx.targets["mode"] = {"type": "mode", "modes": len(modes)}
    if not_chosen:
        ctx.targets["mode"]["not_chosen"] = not_chosen
    outer, read = ctx.it, []
    for number, mode in enumerate(modes, start=1):
        before = set(ctx.targets)
        ctx.it = outer
        done: list = []
        for sentence in _SENTENCE.split(mode):
            found = instructions(sentence, ctx, [])
            if found is None:
                return None
            done += found
        for slot in set(ctx.targets) - before:  # the targets only this mode chooses
            ctx.targets[slot] = {**ctx.targets[slot], "mode": number}
        read.append(done)
    ctx.it = outer
    return [{"op": "mode", "modes": read}]


@template("X or Y", r"(?P<a>[a-z][^,]*?) or (?P<b>[a-z][^,]*)")
def _either(m, ctx):
    """ "Draw 1 or channel 1 rune exhausted", "draw 1 or buff me": two instructions, one of which its controller
    chooses as it resolves (355.17: not a bulleted list of modes). Each must read as a whole instruction choosing
    nothing (a target would be chosen as it is played, before the choice of what to do)."""
    before, outer = dict(ctx.targets), ctx.it
    options = []
    for part in (m["a"], m["b"]):
        ctx.it = outer
        found = instructions(part, ctx, [])
        if found is None or ctx.targets != before:
            return None
        options.append(found)
    ctx.it = outer
    return [{"op": "either", "options": options, "labels": [m["a"], m["b"]]}]


@template("X or Y", r"(?P<a>ready|exhaust) or (?P<b>ready|exhaust) (?P<obj>an? .+)")
def _either_of_one(m, ctx):
    """ "Ready or exhaust a legend": one object chosen as it is played (355.10.a: "Ready a legend" targets a
    legend), and which of the two its controller does chosen as it resolves (355.17)."""
    what = reference(m["obj"], ctx)
    if m["a"] == m["b"] or ctx.targets.get(what, {}).get("type") not in ("unit", "gear", "permanent", "legend"):
        return None
    options = [[{"op": m["a"], "what": what}], [{"op": m["b"], "what": what}]]
    return [{"op": "either", "options": options, "labels": [f"{m['a']} {m['obj']}", f"{m['b']} {m['obj']}"]}]


_IF_YOU_DO = re.compile(r"if you (?P<can>do|can't|couldn't channel (?P<n>\d+) runes? this way), (?P<then>.+?)\.?")
_SEEN = ("kill", "banish", "return_to_hand", "channel")  # instructions whose performance the engine sees (linked.py)


def read_if_you_do(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Kill a gear. If you do, buff me.": the second sentence is executed only if the first's game action was
    performed (359.3.e.14.b; `{op: if_done}`, scenarios/rules/linked.py); "Channel 1 rune exhausted. If you can't,
    draw 1." ("If you couldn't channel 2 runes this way"): only if it was not. Read after one instruction whose performance the engine sees."""
    found = _IF_YOU_DO.fullmatch(sentence.strip())
    if found is None or len(before) != 1 or before[0]["op"] not in _SEEN:
        return None
    if found["n"] and (before[0]["op"], before[0]["n"]) != ("channel", int(found["n"])):  # "this way": the channel
        return None
    then = instructions(found["then"], ctx, used)
    if then is None:
        return None
    used.append("if you do" if found["can"] == "do" else "if you can't")
    return [{"op": "if_done", "do": before, "then" if found["can"] == "do" else "else": then}]


INSTEAD.append(read_if_you_do)
