"""Player choices: every decision the rules leave to a player is asked, never defaulted.

`ask` is used with `yield from` inside engine procedures. A question with exactly
one legal answer is not a choice (the rules leave nothing to decide); it is recorded
in the trace as forced. Any other question suspends the engine until a `choose`
action answers it (XMage's strict choose mode).
"""

from __future__ import annotations

from scenarios.state import Choice, Refusal


def ask(game, kind: str, player: str, prompt: str, options: list, rule: str, forced_ok: bool = True):
    if not options:
        raise ValueError(f"no legal options for {kind}: {prompt}")
    if forced_ok and len(options) == 1:
        game.trace.note("choice", f"{player}: {prompt} -> {options[0]} (only legal option)", [rule], [player])
        return options[0]
    answer = yield Choice(kind, player, prompt, options, rule)
    game.trace.note("choice", f"{player}: {prompt} -> {answer}", [rule], [player])
    return answer


def validate(choice: Choice, action: dict):
    """Check an answer before it reaches the engine (so a refusal leaves the state untouched)."""
    if action.get("by") != choice.player:
        raise Refusal(
            choice.rule or "312.1.b.1", f"{choice.player} must answer '{choice.prompt}', not {action.get('by')}"
        )
    if action.get("choice") not in (None, choice.kind):
        raise Refusal(choice.rule, f"pending choice is {choice.kind}, not {action.get('choice')}")
    answer = action.get("pick")
    if choice.kind in ("order", "assign"):
        return _validate_structured(choice, answer)
    if choice.options is not None and answer not in choice.options:
        raise Refusal(choice.rule, f"{answer!r} is not a legal answer to '{choice.prompt}' (legal: {choice.options})")
    return answer


def _validate_structured(choice: Choice, answer):
    if choice.kind == "order":
        if sorted(answer or []) != sorted(choice.options):
            raise Refusal(choice.rule, f"an order must list exactly {choice.options}")
        return list(answer)
    from scenarios.combat import check_assignment

    check_assignment(choice, answer)
    return dict(answer)
