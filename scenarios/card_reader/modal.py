"""Modal text: "Choose one — • <mode> • <mode>" (355.3): one of a bulleted list of modes, chosen as the spell is
played or the ability is put on the Chain (402.2), its targets with it. Read into a `mode` choice slot and
`{op: mode, modes: [...]}` (scenarios/rules/modes.py); each mode's own target slots are marked with its number,
so only the chosen mode's targets are chosen. Every mode must read in full, or the sentence is refused.
"""

from __future__ import annotations

import re

from scenarios.card_reader.effects import instructions, template

_MODE_SPLIT = re.compile(r"\s*•\s*")
_SENTENCE = re.compile(r"(?<=\.)\s+")


@template(
    "choose one",
    r"choose one(?P<fresh> you've not chosen this turn| that hasn't been chosen this turn)? — (?P<modes>•.+)",
)
def _choose_one(m, ctx):
    """ "Choose one you've not chosen this turn —": the modes this ability chose this turn are not offered."""
    if "mode" in ctx.targets:  # one list of modes per ability
        return None
    modes = [part.strip() for part in _MODE_SPLIT.split(m["modes"]) if part.strip()]
    if len(modes) < 2:
        return None
    ctx.targets["mode"] = {"type": "mode", "modes": len(modes)}
    if m["fresh"]:
        ctx.targets["mode"]["fresh"] = True
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
