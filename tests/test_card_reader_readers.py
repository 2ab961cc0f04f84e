"""The one registry of the families' paragraph readers (`scenarios/card_reader/readers.py`): one signature, one
order (stage, then family, then the order a family registered them in)."""

from __future__ import annotations

import pytest

import scenarios.card_reader  # noqa: F401  (every family registers its readers on import)
from scenarios.card_reader import readers


def test_every_reader_is_kept_in_the_one_order():
    ranks = [readers._rank(entry) for entry in readers.READERS]
    assert ranks == sorted(ranks)
    assert {stage for stage, _ in readers.READERS} == set(readers.STAGES)


def test_a_reader_is_tried_only_at_its_stage_with_what_is_around(monkeypatch):
    seen = []

    def spy(text, card, used, around):
        seen.append((text, around))
        return text == "mine"

    spy.__module__ = "scenarios.card_reader.statics"
    monkeypatch.setattr(readers, "READERS", list(readers.READERS))
    readers.paragraph_reader("last")(spy)
    around = readers.Around(condition="level 3")
    assert readers.read_by("last", "mine", {"type": "unit"}, [], around)
    assert seen == [("mine", around)]
    assert not readers.read_by("first", "mine", {"type": "unit"}, [])  # not tried at another stage
    assert seen == [("mine", around)]


def test_a_module_outside_the_families_cant_register(monkeypatch):
    monkeypatch.setattr(readers, "READERS", list(readers.READERS))

    def stray(text, card, used, around):
        return False

    stray.__module__ = "scenarios.card_reader.nowhere"
    with pytest.raises(ValueError):
        readers.paragraph_reader("first")(stray)
