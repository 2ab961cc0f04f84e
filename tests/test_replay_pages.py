"""The replay pages on the real database: the board at every step, steps in words, what-ifs, the dispute
builder, and hostile scenarios from a page (they get a clear error; other pages keep answering)."""

from __future__ import annotations

import asyncio
import re
import time
from html import unescape
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
import yaml
from markupsafe import escape

from datasette_plugins import replay_pages
from rules_db import dispute, replay_view, typed_actions
from scenarios import library_paths
from scenarios import schema as schema_engine
from scenarios.replay import replay_scenario
from scenarios.schema import PAGE_LIMITS
from scenarios.state import GameState

ROOT = Path(__file__).resolve().parent.parent
ZHONYA = "ruling-03-zhonya-heals-keeps-stat-mods"


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:800])
    return response


def _section(html: str, css_class: str) -> str:
    return html.split(f'class="{css_class}"', 1)[1].split("</section>", 1)[0]


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))).strip()


def _no_server_path(html: str) -> None:
    for path in {str(ROOT), str(Path.home()), "/tmp/", "/work/", "scenarios/library/"}:
        assert path not in html, path


SHARDS = 4  # the library's replays in four tests, so that the workers of `make test` share them


def _count_steps(steps: list[dict]) -> int:
    return sum(1 + _count_steps(step["children"]) for step in steps)


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_every_library_replay_draws_a_board_at_every_step(datasette, real_connection, shard):
    """Every step of every library replay has its board, drawn by the page's own board renderer; the first
    and last step of each are fetched as pages too, and show no path of the server. The stored trace comes
    with them: all its steps nested, and every rule they cite linked from the page (each page is fetched
    once for both)."""
    from datasette_plugins.replay_drawing import Drawing, Marks
    from datasette_plugins.web import Paths

    paths = Paths(datasette, "rules")
    replays = real_connection.execute(
        "select id, step_count, (select count(*) from replay_steps where replay_id = p.id) from replays p order by id"
    ).fetchall()
    assert len(replays) >= 50
    for replay_id, step_count, stored_steps in replays[shard::SHARDS]:
        data = (await _get(datasette, f"/replays/{quote(replay_id)}.json")).json()
        assert _count_steps(data["steps"]) == stored_steps, replay_id
        cited = {
            f"/rules/{c['game']}/{c['version']}/{c['number']}"
            for step in data["steps"]
            for c in step["citations"]
            if c["id"] is not None
        }
        steps = data["view"]["steps"]
        assert len(steps) == step_count, replay_id
        draw = Drawing(mark=Marks(paths, data["labels"], {}), paths=paths)
        for step in steps:
            board = step["board"]
            html = draw.board(board, step["changed"], f"after step {step['number']}")
            on_board = [unit for field in board["battlefields"] for unit in field["units"]]
            on_board += [unit for player in board["players"] for unit in player["base"]]
            names = {data["labels"][unit]["name"] for unit in on_board}
            assert all(str(escape(name)) in html for name in names), (replay_id, step["number"])
            assert html.count('class="player') == len(board["players"]), (replay_id, step["number"])
        for step, address in (
            (0, f"/replays/{quote(replay_id)}"),
            (step_count, f"/replays/{quote(replay_id)}?step={step_count}"),
        ):
            html = (await _get(datasette, address)).text
            assert html.count('class="board"') == 1 and 'class="battlefields"' in html, (replay_id, step)
            _no_server_path(html)
            if step == 0:
                assert all(f'href="{path}"' in html for path in cited), replay_id


async def test_a_step_names_cards_not_engine_ids_and_quotes_its_rules(datasette, real_connection):
    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    dealt = next(s for s in data["view"]["steps"] if s["summary"] == "Void Seeker deals 4 damage to d1")
    html = (await _get(datasette, f"/replays/{ZHONYA}?step={dealt['number']}")).text
    now = _text(_section(html, "stepper").split('class="board"')[0])
    assert "Void Seeker deals 4 damage to Test Defender (B)" in now
    assert "404.1.b" in now and "Deal" in now  # the rule and the start of its text
    steps = _section(html, "judge-steps-section")
    words = _text(steps)
    assert "Test Defender (B)" in words and "Zhonya's Hourglass (B)" in words
    for engine_id in ("d1", "zh", "bf1", "smoke", "seeker"):
        assert not re.search(rf"(?<![\w-]){engine_id}(?![\w-])", words), engine_id
    assert re.search(r'<a class="cite" href="/rules/riftbound/2025-12-01/404\.1\.b" title="404\.1\.b: [^"]+">', steps)
    (newest,) = real_connection.execute(
        """select d.version from documents d join rulebooks b on b.id = d.rulebook_id
        where d.game_id = 'riftbound' and b.is_default and d.is_newest"""
    ).fetchone()
    if newest != "2025-12-01":  # a rule of an older version is followed by the same rule in the newest one
        pair = (
            r'<span class="cite-pair"><a class="cite" href="/rules/riftbound/2025-12-01/404\.1\.b"[^>]*>404\.1\.b</a>'
        )
        assert re.search(
            pair + rf'<span class="to"[^>]*>→</span><a class="cite" href="/rules/riftbound/{newest}/', steps
        )
        assert f"as numbered in the newest ones ({newest})" in words
    board = html.split('class="board"', 1)[1].split('<p class="permalink">')[0]
    defender = board.split('data-object="d1"', 1)[1].split("data-object=", 1)[0]
    assert "4 damage" in defender and "Might <b>1</b>" in defender and "(base 5)" in defender
    assert 'class="obj obj-unit changed"' in board  # what the step changed is highlighted
    assert 'href="/cards/zhonyas-hourglass"' in board


async def test_each_step_page_draws_the_board_and_changes_of_that_step(datasette):
    """A step's page reads only the boards it shows (``replay_view.with_boards``): the same board, changes
    highlighted, as the view with every board (the page's JSON) has at that step."""
    from datasette_plugins.replay_drawing import Drawing, Marks
    from datasette_plugins.web import Paths

    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    draw = Drawing(mark=Marks(Paths(datasette, "rules"), data["labels"], {}), paths=Paths(datasette, "rules"))
    shown = [(0, data["view"]["start"], replay_view.NO_CHANGE)]
    shown += [(step["number"], step["board"], step["changed"]) for step in data["view"]["steps"]]
    for number, board, changed in shown:
        html = (await _get(datasette, f"/replays/{ZHONYA}?step={number}")).text
        page_board = html.split('<div class="board"', 1)[1].split(">", 1)[1].split('<p class="permalink">')[0]
        expected = str(draw.board(board, changed, "")).split('<div class="board"', 1)[1].split(">", 1)[1]
        assert _text(page_board) == _text(expected), number
        assert page_board.count("changed") == expected.count("changed"), number


async def test_step_navigation_links_and_permalinks(datasette):
    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    count = len(data["view"]["steps"])
    html = (await _get(datasette, f"/replays/{ZHONYA}?step=3")).text
    assert f'rel="prev" href="/replays/{ZHONYA}?step=2#board"' in html
    assert f'rel="next" href="/replays/{ZHONYA}?step=4#board"' in html
    last = (await _get(datasette, f"/replays/{ZHONYA}?step={count + 50}")).text
    assert f"Step <b>{count}</b> of {count}" in last and 'rel="next"' not in last
    start = (await _get(datasette, f"/replays/{ZHONYA}?step=nonsense")).text
    assert "The starting board" in start and 'rel="prev"' not in start
    assert "Step through with Next and Previous" in start  # a phone has no arrow keys


async def test_variants_are_alternatives_a_judge_switches_between(datasette, real_connection):
    (scenario,) = real_connection.execute("select scenario from replays where id = ?", [ZHONYA]).fetchone()
    variant = yaml.safe_load(scenario)["variants"][0]
    html = (await _get(datasette, f"/replays/{ZHONYA}")).text
    alternatives = _text(html.split('class="alternatives"', 1)[1].split("</nav>", 1)[0])
    assert "As ruled" in alternatives and variant["title"] in alternatives
    data = (await _get(datasette, f"/replays/{ZHONYA}.json?variant={variant['id']}")).json()
    outcome = {(row.get("object"), row["field"]): row["computed"] for row in data["view"]["outcome"]}
    assert outcome[("d1", "zone")] == "trash" and data["view"]["verdict"] == "match"


async def test_a_what_if_flips_the_outcome_and_names_the_step_whose_outcome_differs(datasette):
    query = urlencode({"path": "setup.players.B.base", "value": "[]"})
    data = (await _get(datasette, f"/replays/{ZHONYA}.json?{query}")).json()
    comparison = data["comparison"]
    assert comparison["flipped"]
    zone = next(row for row in comparison["outcome"] if row.get("object") == "d1" and row["field"] == "zone")
    assert (zone["computed"], zone["what_if"]) == ("base", "trash")
    divergence = comparison["divergence"]
    original, what_if = data["original"]["steps"], data["view"]["steps"]
    assert original[divergence - 1]["summary"] != what_if[divergence - 1]["summary"]
    assert [s["summary"] for s in original[: divergence - 1]] == [s["summary"] for s in what_if[: divergence - 1]]
    # The page opens at the first step after which the outcome differs (Zhonya's Hourglass saving d1 or not).
    deciding = comparison["deciding"]
    assert deciding >= divergence and data["step"] == deciding
    assert "killed" in original[deciding - 1]["summary"] + what_if[deciding - 1]["summary"]
    html = (await _get(datasette, f"/replays/{ZHONYA}?{query}")).text
    assert "The outcome first differs after <a" in html and f">step {deciding}</a>" in html
    assert "The outcome changes." in html
    assert html.count('class="board"') == 2  # original and what-if side by side


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("might", "9", "had Might 9"),
        ("damage", "2", "had 2 damage"),
        ("exhausted", "yes", "were exhausted"),
        ("stunned", "no", "were not stunned"),
        ("buff", "yes", "were buffed"),
    ],
)
async def test_a_what_if_on_a_unit_is_asked_in_words(datasette, field, value, words):
    """The what-if's heading asks its question as a judge would ("What if Test Defender (B) had Might 9?"), not
    in the form's notation ("might = 9")."""
    query = urlencode({"path": f"setup.battlefields.0.units.0.{field}", "value": value})
    html = (await _get(datasette, f"/replays/{ZHONYA}?{query}")).text
    assert f"<h2>What if Test Defender (B) {words}?</h2>" in html


async def test_an_extra_unit_goes_to_every_place_the_what_if_form_offers(datasette, real_connection):
    """The form offers each player's base even where the scenario lists none: the unit is added there (appending to
    a list the document left out made a mapping of it, and the page said "Input should be a valid list")."""
    bare = [
        replay_id
        for replay_id, scenario in real_connection.execute("select id, scenario from replays")
        if any("base" not in (player or {}) for player in yaml.safe_load(scenario)["setup"]["players"].values())
    ]
    assert bare
    data = (await _get(datasette, f"/replays/{bare[0]}.json")).json()
    for location in data["view"]["inputs"]["locations"]:
        query = urlencode({"path": location["path"], "add_card": "Test Unit", "add_might": "7"})
        extra = (await _get(datasette, f"/replays/{bare[0]}.json?{query}")).json()
        assert extra.get("what_if_error") is None, (location, extra["what_if_error"])
        assert extra["view"]["start"]["objects"]["extra1"]["might"] == 7
        heading = _text(_section((await _get(datasette, f"/replays/{bare[0]}?{query}")).text, "compare"))
        assert f"What if an extra Test Unit at {location.get('label') or ''}" in heading and "setup." not in heading


async def test_what_if_forms_cover_numbers_choices_keywords_extra_units_and_the_turn(datasette, real_connection):
    data = (await _get(datasette, "/replays/ruling-09-zhonya-or-guardian-angel.json")).json()
    inputs = data["view"]["inputs"]
    assert inputs["choices"] and inputs["units"] and "Tank" in inputs["keywords"]
    choice = inputs["choices"][0]
    html = (await _get(datasette, "/replays/ruling-09-zhonya-or-guardian-angel")).text
    what_if = _section(html, "what-if")
    assert 'name="keyword"' in what_if and 'name="add_card"' in what_if and "s turn?" in what_if
    alternative = replay_view.flow(choice["alternatives"][0]["value"])
    flipped = (
        await _get(
            datasette,
            "/replays/ruling-09-zhonya-or-guardian-angel.json?"
            + urlencode({"path": choice["path"], "value": alternative}),
        )
    ).json()
    assert flipped["comparison"]["divergence"] and flipped["comparison"]["flipped"]
    unit = inputs["units"][0]
    stronger = await _get(
        datasette,
        "/replays/ruling-09-zhonya-or-guardian-angel.json?"
        + urlencode({"path": unit["path"] + ".might", "value": "99"}),
    )
    assert stronger.json()["view"]["start"]["objects"][unit["id"]]["might"] == 99
    keyword = (
        await _get(
            datasette,
            "/replays/ruling-09-zhonya-or-guardian-angel.json?"
            + urlencode({"path": unit["path"] + ".keywords", "keyword": "Tank", "value": "1"}),
        )
    ).json()
    assert keyword["view"]["start"]["objects"][unit["id"]]["keywords"].get("Tank") == 1
    extra = (
        await _get(
            datasette,
            "/replays/ruling-09-zhonya-or-guardian-angel.json?"
            + urlencode({"path": inputs["locations"][0]["path"], "add_card": "Test Unit", "add_might": "7"}),
        )
    ).json()
    assert extra["view"]["start"]["objects"]["extra1"]["might"] == 7
    turn = (
        await _get(
            datasette,
            "/replays/ruling-09-zhonya-or-guardian-angel.json?"
            + urlencode({"path": "setup.turn.player", "value": "B"}),
        )
    ).json()
    assert turn["view"]["start"]["turn"]["player"] == "B" and turn["comparison"]["divergence"] == 1


async def test_a_what_if_naming_no_input_is_a_clear_error(datasette):
    for query in (
        {"path": "setup.nowhere.0.might", "value": "3"},
        {"path": "setup.turn.player", "value": "Z"},
        {"path": "../../etc", "value": "1"},
        {"path": "setup.turn.player", "value": "&a [*a]"},
    ):
        html = (await _get(datasette, f"/replays/{ZHONYA}?{urlencode(query)}")).text
        assert "That what-if cannot be replayed" in html and 'class="compare"' not in html
        _no_server_path(html)


def _token(text: str) -> str:
    return replay_view.encode(text)


async def test_the_builder_sets_up_a_two_unit_combat_and_offers_only_legal_actions(datasette):
    url = "/dispute"
    steps = [
        {"op": "add", "card": "Test Unit", "player": "A", "where": "base", "might": "4"},
        {"op": "add", "card": "Test Defender", "player": "B", "where": "bf1", "might": "3"},
    ]
    text = dispute.NEW_DISPUTE
    for params in steps:
        response = await datasette.client.get(f"{url}?{urlencode({'s': _token(text), **params})}")
        assert response.status_code == 302, response.text[:500]
        text = replay_view.decode(re.search(r"s=([^#&]+)", response.headers["location"]).group(1))
    data = (await _get(datasette, f"/dispute.json?{urlencode({'s': _token(text)})}")).json()
    legal = [choice["action"] for choice in data["legal"]["actions"]]
    assert {"by": "A", "do": "move", "units": ["u1"], "to": "bf1"} in legal
    assert all(action["by"] == "A" for action in legal)  # B has no priority
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text)})}")).text
    assert "A moves Test Unit (A) to Neutral Ground" in _text(html)
    refused = (
        await _get(
            datasette,
            "/dispute?"
            + urlencode({"s": _token(text), "op": "act", "action": "{by: B, do: move, units: [u2], to: base}"}),
        )
    ).text
    assert "The rules forbid that action." in refused and 'class="cite" href="/rules/riftbound/' in refused
    for action in (
        {"by": "A", "do": "move", "units": ["u1"], "to": "bf1"},
        {"by": "A", "do": "pass"},
        {"by": "B", "do": "pass"},
    ):
        response = await datasette.client.get(
            url + "?" + urlencode({"s": _token(text), "op": "act", "action": replay_view.flow(action)})
        )
        assert response.status_code == 302, _text(response.text)[:600]
        text = replay_view.decode(re.search(r"s=([^#&]+)", response.headers["location"]).group(1))
    data = (await _get(datasette, f"/dispute/replay.json?{urlencode({'s': _token(text), 'step': 0})}")).json()
    end = data["view"]["steps"][-1]["board"]
    assert end["objects"]["u2"]["zone"] == "trash" and end["objects"]["u1"]["location"] == "bf1"
    assert end["objects"]["bf1"]["controller"] == "A" and end["players"][0]["points"] == 1  # A conquered
    download = await _get(datasette, f"/dispute/download?{urlencode({'s': _token(text)})}")
    assert "attachment" in download.headers["content-disposition"] and yaml.safe_load(download.text)["actions"]


async def _built(datasette, text: str, params: dict) -> str:
    response = await datasette.client.get(f"/dispute?{urlencode({'s': _token(text), **params})}")
    assert response.status_code == 302, _text(response.text)[:600]
    return replay_view.decode(re.search(r"s=([^#&]+)", response.headers["location"]).group(1))


async def test_the_builder_sets_up_a_score_dispute_with_its_forms(datasette):
    """Points, the Victory Score, the Rune Pool and runes are set with the builder's forms (they were YAML only),
    and the board names each object by the id the YAML and typed actions use: A at 7 of 8 points conquers and wins."""
    html = (await _get(datasette, "/dispute")).text
    for op, fields in {
        "pool": ("player", "points", "energy", "power"),
        "rune": ("player", "card", "exhausted"),
        "score": ("victory_score",),
    }.items():
        form = next(form for form in html.split("<form")[1:] if f'name="op" value="{op}"' in form)
        assert all(f'name="{field}"' in form for field in fields), op
    text = dispute.NEW_DISPUTE
    for params in (
        {"op": "pool", "player": "A", "points": "7", "energy": "", "power": "2"},
        {"op": "score", "victory_score": "8"},
        {"op": "rune", "player": "A", "card": "calm rune", "exhausted": "1"},
        {"op": "add", "card": "Test Unit", "player": "A", "where": "base"},
        {"op": "act", "action": "A moves Test Unit to bf1"},
        {"op": "act", "action": "A passes"},  # the showdown opened there
        {"op": "act", "action": "B passes"},
    ):
        text = await _built(datasette, text, params)
    data = (await _get(datasette, f"/dispute/replay.json?{urlencode({'s': _token(text), 'step': 0})}")).json()
    start, end = data["view"]["start"], data["view"]["steps"][-1]["board"]
    a = start["players"][0]
    assert (a["points"], a["energy"], a["power"], len(a["runes"]), a["runes_exhausted"]) == (7, 99, 2, 1, 1)
    assert start["victory_score"] == 8 and end["winner"] == "A" and end["players"][0]["points"] == 8
    page = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text)})}")).text
    board = page.split('id="build"', 1)[1].split('id="setup"', 1)[0]
    assert '<code class="object-id" title="Its id in the YAML">u1</code>' in board
    assert '<code class="object-id" title="Its id in the YAML">bf1</code>' in board
    assert "<b>1</b> rune, 1 exhausted" in board  # not "1 runes"
    problem = (
        await _get(datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'pool', 'player': 'A', 'points': 'x'})}")
    ).text
    assert "Points is a whole number, not &#39;x&#39;" in problem  # said alone: a sentence


def _form(html: str, op: str, hidden: str = "") -> str:
    """The builder's form for one op (and one hidden value: a player's, a battlefield's)."""
    return next(f for f in html.split("<form")[1:] if f'value="{op}"' in f and hidden in f.split("</form>")[0])


async def test_the_builder_forms_hold_each_players_values_and_each_battlefields_controller(datasette):
    """A player's points, Energy and Power start as they are now (the engine's defaults included), one form a
    player; a battlefield's controller is set outright, "nobody" too, and a unit added there later leaves it so
    (a unit added alone to an uncontrolled battlefield takes it, 190.4): a board mid-showdown can be built."""
    text = dispute.NEW_DISPUTE
    for params in (
        {"op": "pool", "player": "B", "points": "6", "power": "3"},
        {"op": "add", "card": "Test Unit", "player": "A", "where": "bf1"},
    ):
        text = await _built(datasette, text, params)
    assert yaml.safe_load(text)["setup"]["battlefields"][0]["controller"] == "A"
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text)})}")).text
    values = {
        name: re.search(rf'name="{name}"[^>]*value="(\d+)"', _form(html, "pool", 'value="B"')).group(1)
        for name in ("points", "energy", "power")
    }
    assert values == {"points": "6", "energy": "99", "power": "3"}
    assert 'value="0"' in _form(html, "pool", 'name="player" value="A"').split('name="points"', 1)[1][:40]
    assert "<option selected>A</option>" in _form(html, "control", 'value="bf1"')
    for params in (
        {"op": "control", "id": "bf1", "player": ""},
        {"op": "add", "card": "Test Unit", "player": "A", "where": "bf1"},
    ):
        text = await _built(datasette, text, params)
    assert yaml.safe_load(text)["setup"]["battlefields"][0]["controller"] is None
    data = (await _get(datasette, f"/dispute/replay.json?{urlencode({'s': _token(text), 'step': 0})}")).json()
    assert data["view"]["start"]["objects"]["bf1"]["controller"] is None
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text)})}")).text
    assert '<option value="" selected>nobody</option>' in _form(html, "control", 'value="bf1"')
    text = await _built(datasette, text, {"op": "control", "id": "bf1", "player": "B"})
    assert yaml.safe_load(text)["setup"]["battlefields"][0]["controller"] == "B"
    for wrong, message in (
        ({"id": "bf9", "player": "A"}, "no battlefield"),
        ({"id": "bf1", "player": "Z"}, "not a player"),
    ):
        with pytest.raises(ValueError, match=message):
            dispute.edit(text, "test", "control", wrong)


async def test_a_refusal_reads_as_a_sentence_and_cites_every_rule_it_names(datasette):
    """A refusal shown alone starts with a capital, and the rules its message names (``Refusal.also``: the cost
    it cannot pay) are quoted beside the rule that forbids it."""
    text = dispute.edit(
        dispute.NEW_DISPUTE, "test", "add", {"card": "Test Unit", "player": "A", "where": "base", "exhausted": "1"}
    )
    move = {"by": "A", "do": "move", "units": ["u1"], "to": "bf1"}
    refused = dispute.attempt(text, "test", move)["refused"]
    assert refused["rule"] and refused["also"], refused
    html = (
        await _get(
            datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'act', 'action': replay_view.flow(move)})}"
        )
    ).text
    shown = html.split('id="refusal"', 1)[1].split("</div>", 1)[0]
    cited = re.findall(r'class="cite" href="[^"]+"[^>]*>([^<]+)</a>', shown)
    assert len(cited) >= 2, shown  # the rule that forbids it and the one it names
    text = dispute.edit(text, "test", "add", {"card": "Heart of Dark Ice", "player": "B", "where": "base"})
    text = dispute.edit(text, "test", "add", {"card": "Test Defender", "player": "B", "where": "bf1"})
    text = dispute.edit(text, "test", "add", {"card": "Test Unit", "player": "A", "where": "base"})
    for said in ("A moves u3 to bf1", "A passes"):
        text = dispute.edit(text, "test", "append", {"action": dispute.attempt(text, "test", said)["action"]})
    tried = {"op": "act", "action": "B activates Heart of Dark Ice choosing unit: Test Defender"}
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text), **tried})}")).text
    words = _text(html.split('id="refusal"', 1)[1].split("</p>", 1)[0])
    assert re.search(r"The rules forbid that action\. [A-Z]", words), words


async def test_the_builder_reads_cards_and_actions_as_a_judge_types_them(datasette):
    """A card in any case and without its apostrophe, an action typed as the list says it (objects by card or
    id), and a YAML action naming its units by card; words that are no action get an error, not a rule."""
    text = dispute.NEW_DISPUTE
    for params in (
        {"op": "add", "card": "sunlit guardian", "player": "A", "where": "base"},
        {"op": "add", "card": "zhonyas hourglass", "player": "B", "where": "base"},
        {"op": "add", "card": "test defender", "player": "B", "where": "bf1", "might": "3"},
        {"op": "act", "action": "a moves sunlit guardian (A) to bf1"},
        {"op": "act", "action": "A passes"},
        {"op": "act", "action": "B passes"},
    ):
        response = await datasette.client.get(f"/dispute?{urlencode({'s': _token(text), **params})}")
        assert response.status_code == 302, _text(response.text)[:500]
        text = replay_view.decode(re.search(r"s=([^#&]+)", response.headers["location"]).group(1))
    scenario = yaml.safe_load(text)
    assert [u["card"] for u in scenario["setup"]["players"]["A"]["base"]] == ["Sunlit Guardian"]
    assert scenario["setup"]["players"]["B"]["base"][0]["card"] == "Zhonya's Hourglass"
    assert scenario["actions"][0] == {"by": "A", "do": "move", "units": ["u1"], "to": "bf1"}
    assert scenario["setup"]["battlefields"][0]["controller"] == "B"  # B's unit alone there controls it
    spell = {"op": "add", "card": "quick jab", "player": "A", "where": "hand"}
    text = replay_view.decode(
        re.search(
            r"s=([^#&]+)",
            (await datasette.client.get(f"/dispute?{urlencode({'s': _token(text), **spell})}")).headers["location"],
        ).group(1)
    )
    said = {"op": "act", "action": "A plays Quick Jab choosing target: Test Defender"}  # a colon YAML misreads
    response = await datasette.client.get(f"/dispute?{urlencode({'s': _token(text), **said})}")
    assert response.status_code == 302, _text(response.text)[:500]
    played = yaml.safe_load(replay_view.decode(re.search(r"s=([^#&]+)", response.headers["location"]).group(1)))
    assert played["actions"][-1] == {"by": "A", "do": "play", "card": "s1", "targets": {"target": "u2"}}
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'act', 'action': 'A dances'})}")).text
    problem = _text(html.split('id="problem">', 1)[1].split("</div>", 1)[0])
    assert "No action reads 'A dances'" in problem  # said alone: a sentence
    assert "The rules forbid that action." not in html


@pytest.mark.parametrize("name", ["", "?!", "()", "  "])
def test_a_blank_or_punctuation_only_card_name_adds_no_card(name):
    """A name that folds to nothing names no card (it once matched the first card whose real name is blank)."""
    for op, args in (("add", {"player": "A", "where": "base"}), ("battlefield", {}), ("rune", {"player": "A"})):
        with pytest.raises(ValueError, match="^Card: (type a card's name|the engine does not model a card named)"):
            dispute.edit(dispute.NEW_DISPUTE, "test", op, {**args, "card": name})


def test_an_action_typed_with_a_shared_card_name_asks_for_ids():
    text = dispute.NEW_DISPUTE
    for _ in range(2):
        text = dispute.edit(text, "test", "add", {"card": "Test Unit", "player": "A", "where": "base"})
    by_name = {"by": "A", "do": "move", "units": ["Test Unit"], "to": "bf1"}
    assert "names 2 objects (u1, u2)" in dispute.attempt(text, "test", by_name)["error"]["message"]
    said = dispute.attempt(text, "test", "A moves Test Unit to Neutral Ground")["error"]["message"]
    assert "'Test Unit' names 2 objects (u1, u2): name one by its id" in said
    by_id = dispute.attempt(text, "test", "A moves u2 to bf1")
    assert by_id["action"] == {"by": "A", "do": "move", "units": ["u2"], "to": "bf1"}


async def test_a_typed_action_longer_than_a_value_is_refused_with_its_length(datasette):
    """A sentence is bounded as a scenario's value is (a YAML action always was): 8,000 "(" once stopped a
    sandbox worker; now the page says how long it is and how long it may be, and the engine never sees it."""
    most = PAGE_LIMITS.max_text
    assert typed_actions.typed_action("(" * most) == "(" * most
    with pytest.raises(ValueError, match=f"{most + 1:,} characters long, more than an action may be"):
        typed_actions.typed_action("(" * (most + 1))
    long = {"s": _token(dispute.NEW_DISPUTE), "op": "act", "action": "(" * 8_000}
    html = (await _get(datasette, f"/dispute?{urlencode(long)}")).text
    assert "8,000 characters long" in _text(html.split('id="problem">', 1)[1].split("</div>", 1)[0])


@pytest.mark.parametrize(
    ("hostile", "not_read"),
    [
        ("(" * PAGE_LIMITS.max_text, "it holds no words"),
        ("A moves ((((" + "Test Unit (A" * 300 + " to bf1", "names 2 objects"),
        ("<script>alert(1)</script> moves u1 to bf1", "starts with no player"),
        ("A moves u1 to <b>bf1</b> <i>", "'i' names no object"),
        ("A moves u1" + " to bf1" * 500, "'to' is said twice"),
    ],
    ids=["long", "unbalanced", "script", "markup", "repeated"],
)
async def test_hostile_typing_is_refused_after_one_reading_and_shown_escaped(datasette, monkeypatch, hostile, not_read):
    """Long, unbalanced or markup typing reads as no action: the sentence is folded once (its reading is linear,
    not once for each action the rules allow), and the page shows it as text."""
    text = dispute.NEW_DISPUTE
    for card, where in (("Test Unit", "base"), ("Test Unit", "base"), ("Sunlit Guardian", "base")):
        text = dispute.edit(text, "test", "add", {"card": card, "player": "A", "where": where})
    folded, sizes = typed_actions.folded, []

    def counted(name: str) -> str:
        sizes.append(len(name))
        return folded(name)

    monkeypatch.setattr(typed_actions, "folded", counted)
    assert not_read in dispute.attempt(text, "test", hostile)["error"]["message"]
    assert len([size for size in sizes if size >= len(hostile)]) == 1
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'act', 'action': hostile})}")).text
    problem = html.split('id="problem">', 1)[1].split("</div>", 1)[0]
    assert not_read in unescape(problem)
    assert "<script>" not in problem and "<b>" not in problem and "<i>" not in problem


async def test_a_forbidden_action_typed_as_a_sentence_is_refused_as_its_yaml_is(datasette):
    """A sentence reads as the action it names whether or not the rules allow it, so the engine's refusal and
    every rule it cites are shown as for the YAML form: an exhausted unit's move (414.4, the cost 420.3.a), a
    card its player cannot pay for (357.1)."""
    text = dispute.edit(
        dispute.NEW_DISPUTE, "test", "add", {"card": "Test Unit", "player": "A", "where": "base", "exhausted": "1"}
    )
    text = dispute.edit(text, "test", "add", {"card": "Sunlit Guardian", "player": "A", "where": "hand"})
    text = dispute.edit(text, "test", "pool", {"player": "A", "energy": "0"})
    for said, action, rule in (
        ("A moves Test Unit to bf1", {"by": "A", "do": "move", "units": ["u1"], "to": "bf1"}, "414.4"),
        ("a plays sunlit guardian (A)", {"by": "A", "do": "play", "card": "u2"}, "357.1"),  # 3 energy, has 0
    ):
        refused = dispute.attempt(text, "test", said)["refused"]
        assert refused == dispute.attempt(text, "test", action)["refused"]
        assert refused["rule"] == rule
        html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'act', 'action': said})}")).text
        shown = html.split('id="refusal"', 1)[1].split("</div>", 1)[0]
        cited = re.findall(r'class="cite" href="[^"]+"[^>]*>([^<]+)</a>', shown)
        assert len(cited) == 1 + len(refused["also"]), shown  # cited as the page's rules version numbers them
        assert refused["words"][-1]["text"] in unescape(shown)
    assert dispute.attempt(text, "test", "A moves Test Unit to bf1")["refused"]["also"] == ["420.3.a"]


def test_every_action_the_rules_could_offer_reads_back_from_its_words():
    """Each action the engine could offer at the end of every library scenario, said as the builder lists it
    (by ids, or by cards with their owners as the page shows them), reads back as that action; a card two objects
    share asks for an id."""
    read = 0
    for path in library_paths():
        scenario, _ = schema_engine.parse(path.read_text(), str(path), PAGE_LIMITS)
        game = replay_scenario(scenario, str(path), replay_view.page_budget()).state
        names = replay_view.object_names(game)
        for action in game.candidates():
            said = typed_actions.describe_action(action.to_dict())
            assert typed_actions._said_action(game, said) == action, said
            pieces = replay_view.words(said, names)
            spoken = "".join(p.get("text") or "{card} ({owner})".format(**names[p["object"]]) for p in pieces)
            try:
                assert typed_actions._said_action(game, spoken) == action, spoken
            except typed_actions.MalformedAction as shared:
                assert re.search(r"names \d+ objects", str(shared)), spoken
            read += 1
    assert read > 1000


def test_every_answer_a_question_offers_reads_back_from_its_words():
    """Each answer offered to every question the library's scenarios ask (orders of abilities said by their
    labels among them) reads back from its words as that answer, or says it cannot tell the answers apart."""
    read = apart = 0
    for path in library_paths():
        scenario, _ = schema_engine.parse(path.read_text(), str(path), PAGE_LIMITS)
        game = GameState(scenario.setup.model_dump(exclude_none=True), rules_version=scenario.rules.core)
        for action in scenario.actions:
            for answer in game.candidates() if game.pending else ():
                said = typed_actions.describe_action(answer.to_dict())
                try:
                    assert typed_actions._said_action(game, said) == answer, said
                    read += 1
                except typed_actions.MalformedAction as alike:
                    assert "told apart only in brackets" in str(alike), said
                    apart += 1
            if not action.expect_refusal:  # a refused action leaves the game as it was
                game.push(action.typed)
    assert read > 100 and apart < read / 10


@pytest.mark.parametrize("engine_call", ["replay_scenario", "push"])
def test_an_engine_value_error_is_not_reported_as_a_malformed_action(monkeypatch, engine_call):
    """Only the judge's typing is reported as a malformed action; a ValueError the engine raises is a bug, which
    the sandbox reports as such (it once read "your action is malformed" on the page)."""
    text = dispute.edit(dispute.NEW_DISPUTE, "test", "add", {"card": "Test Unit", "player": "A", "where": "base"})
    assert "no action reads 'A dances'" in dispute.attempt(text, "test", "A dances")["error"]["message"]

    def engine_bug(*args, **kwargs):
        raise ValueError("engine bug")

    if engine_call == "push":
        monkeypatch.setattr(GameState, "push", engine_bug)
    else:
        monkeypatch.setattr(dispute, "replay_scenario", engine_bug)
    with pytest.raises(ValueError, match="engine bug"):
        dispute.attempt(text, "test", "A moves Test Unit to bf1")


def test_an_action_the_rules_forbid_typed_as_a_sentence_says_the_rule():
    text = dispute.NEW_DISPUTE
    for card, player, where in (("Test Unit", "A", "base"), ("Heart of Dark Ice", "B", "base")):
        text = dispute.edit(text, "test", "add", {"card": card, "player": player, "where": where})
    text = dispute.edit(text, "test", "add", {"card": "Test Defender", "player": "B", "where": "bf1"})
    for said in ("A moves Test Unit to bf1", "A passes"):
        action = dispute.attempt(text, "test", said)["action"]
        text = dispute.edit(text, "test", "append", {"action": action})
    tried = dispute.attempt(text, "test", "B activates Heart of Dark Ice choosing unit: Test Defender")
    assert tried["refused"]["rule"] == "308.1.a"  # no [Action]: not in a showdown


def _labels(html: str) -> list[str]:
    """The words of every form label of a page, markup left out."""
    return [_text(label) for label in re.findall(r"<label[^>]*>(.*?)</label>", html, re.DOTALL)]


async def test_the_builder_and_the_what_if_forms_label_in_capitals_and_point_only_to_served_pages(datasette):
    """Every label of the builder and of a replay's what-if forms starts with a capital, as the site's other
    forms do; the builder explains its YAML where it is, linking to pages the site serves (no README)."""
    dispute = (await _get(datasette, "/dispute")).text
    replay = (await _get(datasette, f"/replays/{ZHONYA}")).text
    labels = _labels(dispute) + _labels(replay)
    assert len(labels) > 15
    assert [label for label in labels if not label[:1].isupper()] == []
    assert "README" not in dispute
    note = dispute.split('for="scenario-yaml"', 1)[1].split("</label>", 1)[0]
    for href in re.findall(r'href="([^"]+)"', note):
        await _get(datasette, unescape(href))


async def test_a_library_replay_opens_as_a_copy_in_the_builder(datasette, real_connection):
    """A replay's page offers its scenario to the builder: the copy holds the scenario and offers the actions
    the rules allow next, said as a judge says them."""
    html = (await _get(datasette, f"/replays/{ZHONYA}")).text
    link = re.search(r'<a href="([^"]+)">Edit a copy in the dispute builder</a>', html)
    assert link
    stored = real_connection.execute("select scenario from replays where id = ?", [ZHONYA]).fetchone()[0]
    assert replay_view.decode(re.search(r"s=([^&#]+)", unescape(link.group(1))).group(1)) == stored
    copy = _text((await _get(datasette, unescape(link.group(1)))).text)
    assert "A plays Smoke Screen (A) choosing target: Test Defender (B)" in copy.split("What the rules allow now")[1]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"by": "A", "do": "play", "card": "s1", "targets": {"target": "u2"}}, "A plays s1 choosing target: u2"),
        (
            {"by": "A", "do": "play", "card": "u1", "at": "bf1", "accelerate": True},
            "A plays u1 at bf1, accelerate True",
        ),
        ({"by": "B", "do": "activate", "source": "r1", "ability": 1}, "B activates r1, ability 1"),
        ({"by": "A", "do": "move", "units": ["u1", "u2"], "to": "bf1"}, "A moves u1, u2 to bf1"),
        ({"by": "A", "do": "hide", "card": "h1", "at": "bf2"}, "A hides h1 at bf2"),
        ({"by": "B", "do": "pass"}, "B passes"),
        ({"by": "B", "do": "choose", "choice": "replacement", "pick": "ga"}, "B answers the replacement question: ga"),
    ],
)
def test_an_action_offered_is_said_as_a_step_is(action, words):
    assert typed_actions.describe_action(action) == words


@pytest.mark.parametrize("cut", [3, 0.5])
async def test_a_link_cut_short_says_so_and_what_to_do(datasette, cut):
    """A shared dispute's link cut short (as a message or a chat may do) is a damaged link, not a YAML error at
    some line of half a scenario: each page it reaches says so and what to do, and the replay page links onward
    to the builder."""
    token = _token(dispute.NEW_DISPUTE.replace("actions: []", "actions:\n- {by: A, do: pass}"))
    short = token[: len(token) - cut] if isinstance(cut, int) else token[: int(len(token) * cut)]
    with pytest.raises(ValueError, match="damaged"):
        replay_view.decode(short)
    builder = _text((await _get(datasette, f"/dispute?s={short}")).text)
    replay = (await _get(datasette, f"/dispute/replay?s={short}", status=400)).text
    download = await _get(datasette, f"/dispute/download?s={short}", status=400)
    for said in (builder, _text(replay), download.text):
        assert "link is damaged" in said and "copy the whole link again" in said and "Line " not in said
    assert '<a class="button" href="/dispute">Start a new dispute</a>' in replay


async def test_yaml_typed_into_the_builder_reports_the_line(datasette):
    broken = dispute.NEW_DISPUTE.replace("card: Neutral Ground", "card: Neutral Ground\n    might: [", 1)
    html = (await datasette.client.post("/dispute", data={"yaml": broken})).text
    line = next(n for n, text in enumerate(broken.splitlines(), start=1) if "might: [" in text)
    problem = _text(html.split('id="problem">', 1)[1].split("</div>", 1)[0])
    assert problem.startswith(f"Line {line + 1}") or problem.startswith(f"Line {line}"), problem
    assert '<li class="error-line" id="error-line">' in html
    wrong = dispute.NEW_DISPUTE.replace("actions: []", "colour: red\nactions: []", 1)
    html = (await datasette.client.post("/dispute", data={"yaml": wrong})).text
    problem = _text(html.split('id="problem">', 1)[1].split("</div>", 1)[0])
    line = next(n for n, text in enumerate(wrong.splitlines(), start=1) if "colour: red" in text)
    assert problem.startswith(f"Line {line}: colour:"), problem
    good = await datasette.client.post("/dispute", data={"yaml": dispute.NEW_DISPUTE})
    assert good.status_code == 302 and "/dispute?s=" in good.headers["location"]


async def test_hostile_scenarios_get_a_clear_error_while_other_pages_answer(datasette):
    bomb = "a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 8)}]\n" for i in range(12)
    )
    many = dispute.NEW_DISPUTE.replace("actions: []\n", "actions:\n" + "- {by: A, do: pass}\n" * 100_000)

    async def hostile(text: str) -> str:
        started = time.monotonic()
        response = await datasette.client.get(f"/dispute/replay?{urlencode({'s': _token(text)})}")
        assert response.status_code in (200, 400)
        return _text(response.text), time.monotonic() - started

    async def other_pages() -> list[int]:
        codes = []
        for _ in range(5):
            codes.append((await datasette.client.get("/rules/riftbound")).status_code)
        return codes

    # Datasette runs its startup on the first request and lets requests arriving meanwhile through unstarted
    # (AsgiRunOnFirstRequest): started here, so the three first requests at once race nothing.
    await datasette.invoke_startup()
    (bomb_text, bomb_time), (many_text, many_time), codes = await asyncio.gather(
        hostile(bomb), hostile(many), other_pages()
    )
    assert "cannot be replayed" in bomb_text and "anchors (&) or aliases (*)" in bomb_text
    assert "cannot be replayed" in many_text or "holds more than" in many_text
    assert bomb_time < 10 and many_time < 10  # a guard against a hang; speed is measured in benchmarks/
    assert codes == [200] * 5


class _AnsweringSandbox:
    """A sandbox that answers every call at once, with the arguments it was given (no worker process)."""

    def call(self, function, **arguments):
        return {"error": None, "function": function, **arguments}


def test_library_replays_are_kept_apart_from_what_ifs_and_disputes(monkeypatch, real_connection):
    """A library replay is replayed once and kept while what-ifs and disputes (the sandbox's answers) come and go,
    and the whole library fits (it pushed itself out of a 128-view cache: 8-15 ms of engine a page); a variant the
    scenario does not have is answered, not kept."""
    from datasette_plugins.replay_pages import _library_source
    from rules_db import queries

    rows = queries.library_scenarios(real_connection, 10_000)
    service = replay_view.Replays(_AnsweringSandbox(), size=2)
    assert service.library_size > len(rows)
    replayed = []
    real = replay_view.replayed_view
    monkeypatch.setattr(replay_view, "replayed_view", lambda *a: replayed.append(a[1]) or real(*a))
    library = rows[:5]
    for row in library:
        service.view(row["scenario"], _library_source(row), trusted=True, boards=[0])
    for number in range(5):  # what-ifs of them, and disputes typed in
        service.view(library[0]["scenario"], "x", changes=[{"path": "setup.turn.player", "value": f"P{number}"}])
        service.legal(f"dispute {number}", "your dispute")
    for row in library:
        view = service.view(row["scenario"], _library_source(row), trusted=True, boards=[1])
        assert view["error"] is None and view["steps"]
    assert len(replayed) == 5  # each once
    for _ in range(3):
        missing = service.view(library[0]["scenario"], "s", "no-such-variant", trusted=True)
        assert "no variant" in missing["error"]["message"]
    assert len(service._library) == 5 and len(replayed) == 8


async def test_a_replay_pages_card_links_are_looked_up_once_per_server(datasette, monkeypatch):
    """The card pages a replay links to are read once and kept (a thread's round trip to the database a page,
    under load a queue's wait), and the page links them as before."""
    from rules_db import queries

    calls = []
    real = queries.card_slugs
    monkeypatch.setattr(queries, "card_slugs", lambda *a: calls.append(a[2]) or real(*a))
    first = (await _get(datasette, f"/replays/{ZHONYA}?once=1")).text
    before = len(calls)
    again = (await _get(datasette, f"/replays/{ZHONYA}?once=2")).text
    assert len(calls) == before and 'href="/cards/zhonyas-hourglass"' in again
    assert first.count('href="/cards/') == again.count('href="/cards/') > 0


async def test_the_builder_judges_under_the_version_a_judge_chooses_the_newest_first(datasette):
    """A new dispute is judged under the newest Core Rules the database holds; the version form offers each one
    and changes the outcome where the versions rule differently (a countered card and Legion: Noxus Hopeful costs
    2 under 1.4, where the countered Discipline was Finalized, and 4 under 2025-12-01), citing that version's rule."""
    html = (await _get(datasette, "/dispute")).text
    form = _form(html, "version")
    options = re.findall(r'<option value="([^"]+)"( selected)?>', form)
    assert [value for value, _ in options] == ["2025-06-02", "2025-12-01", "2026-06-18"]
    assert [value for value, selected in options if selected] == ["2026-06-18"]
    text = (ROOT / "scenarios/library/dispute-250-a-countered-card-is-finalized-for-legion.yaml").read_text()
    judged = {}
    for version in ("2025-12-01", "2026-06-18"):
        text = await _built(datasette, text, {"op": "version", "version": version})
        data = (await _get(datasette, f"/dispute/replay.json?{urlencode({'s': _token(text)})}")).json()
        assert data["view"]["scenario"]["rules_version"] == version
        judged[version] = data["view"]["steps"][-1]["board"]["players"][0]["energy"]
        page = (await _get(datasette, f"/dispute/replay?{urlencode({'s': _token(text)})}")).text
        rule = {"2025-12-01": "412.1.b", "2026-06-18": "419.4.b"}[version]  # a countered card: not played, Finalized
        assert f'href="/rules/riftbound/{version}/{rule}"' in page
    assert judged == {"2025-12-01": 0, "2026-06-18": 2}
    refused = (
        await _get(datasette, f"/dispute?{urlencode({'s': _token(text), 'op': 'version', 'version': '1999-01-01'})}")
    ).text
    assert "holds no Core Rules" in refused


async def test_a_dispute_naming_a_version_the_database_lacks_shows_the_version_it_is_judged_as(datasette):
    """A dispute's YAML may name a valid date the database holds no Core Rules of: the version form shows it chosen,
    saying which version's rulings the engine applies (the newest it knows before it), rather than nothing chosen
    (which a browser shows as the oldest)."""
    text = (ROOT / "scenarios/library/dispute-250-a-countered-card-is-finalized-for-legion.yaml").read_text()
    text = text.replace('rules: {core: "2026-06-18"}', 'rules: {core: "2026-01-15"}')
    html = (await _get(datasette, f"/dispute?{urlencode({'s': _token(text)})}")).text
    options = re.findall(r'<option value="([^"]+)"( selected)?>(.*?)</option>', _form(html, "version"))
    assert [(value, re.sub("<[^>]+>", "", label)) for value, selected, label in options if selected] == [
        ("2026-01-15", "2026-01-15 (not in this database: judged as 2025-12-01)")
    ]
    assert [value for value, _, _ in options] == ["2026-01-15", "2025-06-02", "2025-12-01", "2026-06-18"]
    data = (await _get(datasette, f"/dispute/replay.json?{urlencode({'s': _token(text)})}")).json()
    assert data["view"]["scenario"]["readings_of"] == "2025-12-01"


async def test_a_kept_library_replay_is_read_without_a_threads_round_trip(datasette, monkeypatch):
    """Once a library replay is kept, its pages read their boards on the event loop (a tenth of a millisecond)
    rather than in a thread; a replay not kept yet, and a what-if, still go to a thread."""
    from datasette_plugins import replay_pages

    await _get(datasette, f"/replays/{ZHONYA}?kept=1")
    ran = []
    real = replay_pages.run
    monkeypatch.setattr(replay_pages, "run", lambda *a, **k: ran.append(a[0]) or real(*a, **k))
    html = (await _get(datasette, f"/replays/{ZHONYA}?step=3&kept=2")).text
    assert ran == [] and "Step <b>3</b>" in html
    await _get(datasette, f"/replays/{ZHONYA}?path=setup.turn.player&value=B&kept=3")
    assert ran == ["view"]


async def test_the_engines_trace_keeps_a_citations_version_on_one_line(datasette, real_connection):
    """The full trace cites a rule of another version as the engine writes it ("368@2025-12-01"); its date is a
    ``<time>``, which the style sheet keeps on one line (it broke across lines on a phone), the rest escaped."""
    from scenarios import library_paths
    from scenarios.replay import replay_file

    stored = {row[0] for row in real_connection.execute("select id from replays")}
    replay_id = next(
        replay.scenario_id
        for replay in map(replay_file, library_paths())
        if replay.scenario_id in stored and any("@" in number for number in replay.cited_numbers())
    )
    html = (await _get(datasette, f"/replays/{quote(replay_id)}")).text
    trace = html.split('<ol class="engine-steps">', 1)[1].split("</ol>", 1)[0]
    notes = re.findall(r'<span class="note">\[(.*?)\]</span>', trace)
    versioned = [note for note in notes if "@" in note]
    assert versioned, notes[:5]
    assert all(re.search(r'@<time datetime="\d{4}-\d{2}-\d{2}">', note) for note in versioned), versioned[:3]


def test_an_extra_unit_always_gets_a_free_id():
    """A what-if adding a unit names it extra<N>, the first N no object of the scenario holds: with extra1 to
    extra999 taken (the ids the form used to try) it is extra1000, not a server error."""
    taken = {f"extra{n}": {} for n in range(1, 1000)} | {"A": {}, "B": {}}
    original = {"names": taken, "inputs": {"turn_player": "A"}}
    (change,) = replay_pages._what_if_change({"path": "setup.players.A.base", "add_card": "Test Unit"}, original)
    assert change["value"]["id"] == "extra1000"
    (change,) = replay_pages._what_if_change(
        {"path": "setup.players.A.base", "add_card": "Test Unit"}, {**original, "names": {"extra2": {}}}
    )
    assert change["value"] == {"id": "extra1", "card": "Test Unit"}


async def test_the_verdict_comes_first_with_the_steps_that_decide_it_linked(datasette):
    """Above the board and the steps: the outcome, then each deciding step linked to its board and each what-if
    that flips it linked to that what-if; the link a deciding step makes opens that step's board."""
    html = (await _get(datasette, f"/replays/{ZHONYA}")).text
    assert html.index('class="verdict-first"') < html.index('class="stepper"') < html.index('class="judge-steps"')
    verdict = html.split('class="verdict-first"', 1)[1].split("</section>", 1)[0]
    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    deciding = data["deciding"]
    assert 1 <= len(deciding) <= 3
    for decided in deciding:
        assert f'?step={decided["number"]}#board"' in verdict
        for flip in decided["flips"]:
            assert flip["url"].replace("&", "&amp;") in verdict and "#compare" in flip["url"]
    first = deciding[0]
    page = (await _get(datasette, f"/replays/{ZHONYA}?step={first['number']}")).text
    assert f"Step <b>{first['number']}</b>" in page


async def test_routine_steps_fold_into_a_row_that_opens_with_a_tap_and_stay_numbered(datasette):
    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    steps = data["view"]["steps"]
    routine = [s["number"] for s in steps if s["kind"] == "cleanup" and not s["change"]]
    html = (await _get(datasette, f"/replays/{ZHONYA}")).text
    listed = html.split('class="judge-steps-section"', 1)[1]
    folds = listed.split('<li class="folded">')[1:]
    assert folds, "the cleanups with nothing to clean are folded"
    inside = "".join(fold.split("</details>", 1)[0] for fold in folds)
    assert all(f'id="step-{n}"' in inside for n in routine if f'id="step-{n}"' in listed)
    assert "<details open" not in listed  # nothing folded is shown: every fold closed
    kept = [s["number"] for s in steps if s["kind"] in ("effect", "refusal", "choice")]
    assert all(f'id="step-{n}"' in listed and f'id="step-{n}"' not in inside for n in kept)
    # A folded step shown keeps its fold open, so it is seen in the list.
    shown = (await _get(datasette, f"/replays/{ZHONYA}?step={routine[0]}")).text.split('class="judge-steps-section"')[1]
    assert "<details open><summary>" in shown


async def test_the_board_shows_first_what_the_step_touches(datasette):
    data = (await _get(datasette, f"/replays/{ZHONYA}.json")).json()
    dealt = next(s for s in data["view"]["steps"] if "deals 4 damage to d1" in s["summary"])
    html = (await _get(datasette, f"/replays/{ZHONYA}?step={dealt['number']}")).text
    stepper = html.split('class="stepper"', 1)[1]
    touched = stepper.split('class="touched"', 1)[1].split('class="board"', 1)[0]
    assert 'data-object="d1"' in touched and "4 damage" in _text(touched)
    assert stepper.index('class="touched"') < stepper.index('class="board"')
    assert 'href="#what-if"' in stepper.split('class="touched"', 1)[0]  # the what-if one tap from the step


async def test_a_what_if_that_ends_before_the_deciding_step_links_it_in_the_original(datasette):
    """A Might 9 defender survives, so the what-if ends before the original's step where Zhonya's Hourglass decides
    the outcome: the sentence links that step in the original, and the page opens at a step the what-if has."""
    what_if = f"/replays/{ZHONYA}?path=setup.battlefields.0.units.0.might&value=9"
    data = (await _get(datasette, what_if.replace("?", ".json?"))).json()
    comparison, count = data["comparison"], len(data["view"]["steps"])
    assert comparison["deciding"] > count >= comparison["marked"] == comparison["divergence"] > 0
    sentence = _section((await _get(datasette, what_if)).text, "compare").split('class="divergence">', 1)[1]
    assert f'step={comparison["deciding"]}#board">step {comparison["deciding"]} of the original</a>' in sentence
    assert "path=" not in sentence.split(" of the original", 1)[0].rsplit("<a", 1)[1]
    page = (await _get(datasette, what_if)).text
    assert f'<li id="step-{comparison["marked"]}" class="' in page and f"Step <b>{comparison['marked']}</b>" in page
