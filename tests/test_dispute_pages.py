"""The dispute builder's page (datasette_plugins/dispute_pages.py): linked from the home page, the replays list
and every search page; each action opens the page where the outcome, the last action's steps, the actions allowed
and the board are together; every action done is listed (an answered question too); a unit may be given any of
the engine's keywords; errors name the field in a judge's words."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from servers import get_page

from rules_db import dispute, replay_view


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))).strip()


def _between(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


async def _form(datasette, text: str, **form) -> tuple[str, str]:
    """A builder form sent as the page sends it: the new scenario and the anchor the page opens at."""
    response = await get_page(datasette, "/dispute?" + urlencode({"s": replay_view.encode(text), **form}), status=302)
    location = response.headers["location"]
    return replay_view.decode(parse_qs(urlsplit(location).query)["s"][0]), urlsplit(location).fragment


TANK = dispute.NEW_DISPUTE
for _form_args in (
    {"card": "Test Unit", "player": "A", "where": "base", "might": "4"},
    {"card": "Test Unit", "player": "B", "where": "bf1"},
    {"card": "Test Unit", "player": "B", "where": "bf1", "keyword": "Tank"},
):
    TANK = dispute.edit(TANK, "test", "add", _form_args)


@pytest.mark.parametrize("path", ["/", "/replays", "/search?q=tank", "/search?q=nothing+at+all+zzz"])
async def test_the_builder_is_linked_from_home_replays_and_every_search(datasette, path):
    html = (await get_page(datasette, path)).text
    assert 'href="/dispute"' in html


async def test_an_action_opens_the_page_at_the_outcome_the_last_action_the_allowed_actions_and_the_board(datasette):
    text, anchor = await _form(
        datasette, TANK, op="act", action='{"by": "A", "do": "move", "units": ["u1"], "to": "bf1"}'
    )
    assert anchor == "now"
    text, anchor = await _form(datasette, text, op="pass_round")
    assert anchor == "now" and [a["do"] for a in dispute.document(text)["actions"]] == ["move", "pass", "pass"]
    legal = dispute.legal(text, "test")
    assignment = next(a for a in legal["actions"] if a["action"]["do"] == "choose")
    assert assignment["action"]["pick"] == {"u3": 3, "u2": 1}  # Tank first: lethal damage to u3 before u2 (815)
    text, _ = await _form(datasette, text, op="act", action=json.dumps(assignment["action"]))
    html = (await get_page(datasette, "/dispute?" + urlencode({"s": replay_view.encode(text)}))).text
    now = _between(html, 'id="now"', '<section id="add"')
    # the outcome, the actions allowed, what just happened and the board, in that order, in one section
    order = [now.index(marker) for marker in ('class="verdict"', 'id="actions"', 'class="just-now"', 'class="board')]
    assert order == sorted(order)
    verdict = _text(_between(now, 'class="verdict"', 'id="actions"'))
    # u3, B's Tank, dies; two units of B's alike are told apart by their ids, the one unit of A's is not
    assert "Test Unit (B, u3) died" in verdict and "Test Unit (A) died" in verdict and "(A, u1)" not in verdict
    assert "Test Unit (B, u3): 3" in verdict
    assert re.search(r"decided by step \d+: A: assign 4 combat damage .*815\.1\.c", verdict), verdict
    done = _text(_between(now, 'class="judge-steps done-actions"', "</ol>"))
    assert "4 A answers the assign question" in done  # the assignment is an action of the list
    assert "Everyone passes in turn" not in now  # no pass is offered once the combat is over


async def test_a_card_is_added_with_a_keyword_and_the_next_card_keeps_the_owner_and_place(datasette):
    text, anchor = await _form(
        datasette,
        dispute.NEW_DISPUTE,
        op="add",
        card="test unit",
        player="B",
        where="bf1",
        keyword="Shield",
        keyword_value="2",
    )
    assert anchor == "add"
    assert dispute.document(text)["setup"]["battlefields"][0]["units"][0]["keywords"] == {"Shield": 2}
    response = await get_page(
        datasette,
        "/dispute?"
        + urlencode(
            {
                "s": replay_view.encode(dispute.NEW_DISPUTE),
                "op": "add",
                "card": "Test Unit",
                "player": "B",
                "where": "bf1",
            }
        ),
        status=302,
    )
    html = (await get_page(datasette, response.headers["location"].split("#")[0])).text
    add = _between(html, 'class="builder-form add-card"', "</form>")
    assert re.search(r'name="player" value="B" checked', add) and re.search(r'name="where" value="bf1" checked', add)
    assert 'value="Test Unit"' in add
    offered = re.findall(r'<option value="([^"]+)">', _between(add, 'name="keyword"', "</select>"))
    assert offered == [k["name"] for k in dispute.unit_keywords()] and {"Tank", "Shield", "Assault"} <= set(offered)


async def test_a_forms_error_names_the_field_in_a_judges_words(datasette):
    query = {"s": replay_view.encode(dispute.NEW_DISPUTE), "op": "add", "card": "Test Unit", "player": "A"}
    html = (
        await get_page(datasette, "/dispute?" + urlencode({**query, "keyword": "Shield", "keyword_value": "x"}))
    ).text
    alert = _text(_between(_between(html, 'id="add"', "</section>"), 'role="alert"', "</div>"))
    assert "Keyword: Shield's number is a whole number, not “x”" in alert
    broken = dispute.NEW_DISPUTE.replace("    B: {}\n", "")
    html = (await datasette.client.post("/dispute", data={"yaml": broken}, follow_redirects=False)).text
    said = _text(_between(html, 'id="yaml"', "</section>"))
    assert "players needs at least 2 entries; it has 1" in said and "Dictionary" not in said


_FOUR_UNITS = "\n".join(f"        - {{id: e{i}, card: Test Unit, controller: B}}" for i in range(4))
MANY_WAYS = f"""meta: {{id: many-ways, title: Harsh Lesson and four units}}
rules: {{core: "2026-06-18"}}
setup:
  turn: {{player: A}}
  players:
    A:
      energy: 5
      hand:
        - {{id: lesson, card: Harsh Lesson}}
    B: {{}}
  battlefields:
    - id: bf1
      card: Neutral Ground
      controller: B
      units:
{_FOUR_UNITS}
actions: []
"""


async def test_many_ways_of_one_action_are_one_entry_a_judge_opens(datasette):
    """A spell with several legal targets is one entry (a <details> naming how many ways), not a button per target
    to scroll past on a phone; a player's other actions stay buttons of their own."""
    html = (await get_page(datasette, "/dispute?" + urlencode({"s": replay_view.encode(MANY_WAYS)}))).text
    allowed = _between(html, 'id="actions"', "</form>")
    group = _between(allowed, '<details class="legal-group">', "</details>")
    assert "(4 ways: open to choose)" in _text(_between(group, "<summary>", "</summary>"))
    assert group.count('class="button"') == 4 and "Harsh Lesson" in _text(group)
    assert "ends the turn" in _text(allowed.split('<details class="legal-group">')[0] + allowed.split("</details>")[1])


def test_ways_that_differ_only_in_how_many_objects_fill_one_slot_are_a_picker():
    """An "any number of" group (355.13) is 2^N ways for N objects: the page offers the N objects to tick, the action
    without its slot, and the slot; ways of one target each (a button apiece) or differing otherwise are no picker."""
    from datasette_plugins.dispute_pages import _picked, _picker

    def ways(*filled, **other):
        base = {"by": "A", "do": "play", "card": "fox", **other}
        return [{"action": {**base, **({"targets": {"target": list(ids)}} if ids else {})}} for ids in filled]

    picker = _picker(ways((), ("e0",), ("e1",), ("e0", "e1")))
    base = json.dumps({"by": "A", "do": "play", "card": "fox"})
    assert picker == {"base": base, "slot": "target", "objects": ["e0", "e1"]}
    assert _picker(ways(("e0",), ("e1",), ("e2",))) is None  # one object each: buttons
    assert _picker(ways(("e0",), ("e0", "e1")) + ways(("e1",), mode=2)) is None  # another field differs
    assert json.loads(_picked(base, "target", ["e1", "e0", "e1"]))["targets"] == {"target": ["e1", "e0"]}
    assert "targets" not in json.loads(_picked(base, "target", []))
    with pytest.raises(ValueError, match="names no action"):
        _picked("[1, 2]", "target", ["e0"])


async def test_a_picker_tries_the_ticked_objects_as_one_action(datasette):
    """The picker's form fills its slot with the ticked objects and tries the action as if typed: a legal one is
    added, one the rules forbid is refused with its rule, the dispute unchanged."""
    action = next(
        choice["action"] for choice in dispute.legal(MANY_WAYS, "test")["actions"] if choice["action"].get("targets")
    )
    ((slot, _),) = action["targets"].items()
    base = json.dumps({key: value for key, value in action.items() if key != "targets"})
    text, anchor = await _form(datasette, MANY_WAYS, op="pick", base=base, slot=slot, pick="e2")
    assert anchor == "now" and dispute.document(text)["actions"][0]["targets"] == {slot: ["e2"]}
    query = urlencode({"s": replay_view.encode(MANY_WAYS), "op": "pick", "base": base, "slot": slot})
    html = (await get_page(datasette, f"/dispute?{query}&pick=e1&pick=e2")).text  # two for a one-target spell
    assert 'id="refusal"' in html and "The rules forbid that action" in html


async def test_an_any_number_group_is_shown_as_a_picker_of_its_objects(datasette, monkeypatch):
    """Ways of one action differing only in the group filling one slot show as the group's objects to tick (their
    cards and owners told apart by id), with the action and the slot in the form, not one button per group."""
    from datasette_plugins import replay_pages

    real = replay_pages.run
    groups = [[], ["e0"], ["e1"], ["e0", "e1"]]

    async def listed(what, *args, **kwargs):
        found = await real(what, *args, **kwargs)
        if what == "legal":
            base = {"by": "A", "do": "play", "card": "volley"}  # a spell of "any number of" units
            words = [{"text": "A plays Volley"}]
            ways = [{"action": {**base, **({"targets": {"target": g}} if g else {})}, "words": words} for g in groups]
            found = {**found, "actions": ways + found["actions"]}
        return found

    monkeypatch.setattr(replay_pages, "run", listed)
    html = (await get_page(datasette, "/dispute?" + urlencode({"s": replay_view.encode(MANY_WAYS)}))).text
    picker = _between(html, '<form method="get" class="builder-form picker"', "</form>")
    assert 'name="op" value="pick"' in picker and 'name="slot" value="target"' in picker
    assert re.findall(r'name="pick" value="(\w+)"', picker) == ["e0", "e1"]
    assert "Test Unit" in _text(picker) and "(B, e1)" in _text(picker) and 'class="button"' not in picker
