"""Cards an edition does not load but kittens ships: a file may name one (an expansion's
card, "this forbids Reverse" on a deck without Reverse), and that part of it then does
nothing until the card's library is loaded. The checker warns instead of refusing."""

from __future__ import annotations

from functools import lru_cache

import yaml

from ...about import RULEBOOK_DIR


@lru_cache(maxsize=1)
def shipped_cards() -> dict[str, str]:
    """Every card id of the shipped card libraries -> the library that defines it first."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found: dict[str, str] = {}
    for path in sorted(RULEBOOK_DIR.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
        cards = data.get("cards") if isinstance(data, dict) else None
        for card in cards if isinstance(cards, list) else ():
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                found.setdefault(card["id"], f"rulebook/{path.name}")
    return found
