"""The simulator's card library models real cards: what a definition declares
(keywords with their values, might, energy) agrees with the printed card."""

from __future__ import annotations

import pytest

from ingest.cards import parse_cards
from ingest.documents import CORPUS_DIR
from scenarios.cards import load_library

# Keywords whose presence and value change what the engine computes.
CHECKED_KEYWORDS = {"Tank", "Assault", "Shield", "Deflect", "Hidden", "Deathknell", "Ganking", "Accelerate"}

PRINTED = {card.name: card for card in parse_cards(CORPUS_DIR / "riftbound-cards.json").cards}
MODELLED = [card for card in load_library().values() if not card.made_up]


def test_the_library_models_real_cards():
    assert len(MODELLED) >= 30
    assert all(card.real in PRINTED for card in MODELLED)


def _printed_keywords(name: str) -> dict[str, int]:
    return {keyword.term: keyword.value or 1 for keyword in PRINTED[name].keywords if keyword.term in CHECKED_KEYWORDS}


@pytest.mark.parametrize("card", [card for card in MODELLED if card.type == "unit"], ids=lambda card: card.name)
def test_declared_keywords_agree_with_the_printed_text(card):
    """A unit's bracketed keywords are its own (a spell's, like Cleave's [Assault 3], are granted)."""
    declared = {term: value for term, value in card.keywords.items() if term in CHECKED_KEYWORDS}
    assert declared == _printed_keywords(card.real)


@pytest.mark.parametrize(
    "card",
    [card for card in MODELLED if card.might is not None and PRINTED[card.real].might is not None],
    ids=lambda card: card.name,
)
def test_declared_might_agrees_with_the_printed_card(card):
    assert card.might == PRINTED[card.real].might


@pytest.mark.parametrize(
    "card",
    [card for card in MODELLED if card.energy and PRINTED[card.real].energy is not None],
    ids=lambda card: card.name,
)
def test_declared_energy_agrees_with_the_printed_card(card):
    assert card.energy == PRINTED[card.real].energy


@pytest.mark.parametrize("card", [card for card in MODELLED if card.domains], ids=lambda card: card.name)
def test_declared_domains_agree_with_the_printed_card(card):
    """A printed Power cost is of the card's domain (133.1, 134.2.e.6): the declared domains are the printed ones."""
    printed = [domain for domain in PRINTED[card.real].domains if domain != "Colorless"]
    assert sorted(card.domains) == sorted(printed)


@pytest.mark.parametrize(
    "card", [card for card in MODELLED if card.power and PRINTED[card.real].power], ids=lambda card: card.name
)
def test_declared_power_agrees_with_the_printed_card(card):
    assert card.power == PRINTED[card.real].power
