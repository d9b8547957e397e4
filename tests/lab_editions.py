"""Small made-up editions for the lab's tests: games of a few turns, outcomes known.

* ``rigged``: one coin on top of a pile of bombs; whoever holds a coin wins at once
  (a state check), so the first player, seat 0, wins every game;
* ``fair`` and ``fair_b``: coins and bombs shuffled; the same deck listed in another
  order, so the same seed deals other games from the same distribution (an A/A pair);
* ``long``: twice the coins, so games last longer than ``fair``'s;
* ``dud``: ``fair`` with a card anyone may play but whose requirement never holds.
"""

from __future__ import annotations

CARDS = """format: 1
kind: cards
cards:
  - id: coin
    title: Coin
    text: Does nothing.
    when: never
  - id: bomb
    title: Bomb
    text: Whoever draws it is out.
    when: never
    on_draw: eliminate(me)
  - id: dud
    title: Dud
    text: Can be played only when a player holds a hundred cards.
    when: own_turn
    requires: count(hand(me)) > 100
    effect: end_turn()
"""

_EDITION = """format: 1
kind: edition
id: {id}
name: {name}
players: {{min: 2, max: 5}}
include: [coins.yaml]
deck: {deck}
setup:
{setup}
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
{extra}"""

RIGGED_CHECK = """checks:
  - id: first_coin_wins
    text: Whoever holds a coin wins at once.
    if: count(hand(me)) > 0
    effect: win(me)
"""

EDITIONS = {
    "rigged": dict(name="Seat Zero Always Wins", deck="{coin: 3, bomb: 4}",
                   setup="  - set_aside: [coin]\n  - shuffle: draw_pile\n"
                         "  - put_back: {card: coin, count: 1}\n  - remove: set_aside",
                   extra=RIGGED_CHECK),
    "fair": dict(name="Coins and Bombs", deck="{coin: 12, bomb: 4}", setup="  - shuffle: draw_pile", extra=""),
    "fair_b": dict(name="Coins and Bombs (listed the other way)", deck="{bomb: 4, coin: 12}",
                   setup="  - shuffle: draw_pile", extra=""),
    "long": dict(name="Many Coins and Bombs", deck="{coin: 24, bomb: 4}", setup="  - shuffle: draw_pile",
                 extra=""),
    "dud": dict(name="Coins, Bombs and Duds", deck="{coin: 12, bomb: 4, dud: 2}",
                setup="  - set_aside: [bomb]\n  - shuffle: draw_pile\n  - deal: {count: 1}\n"
                      "  - put_back: {card: bomb, count: 4}\n  - shuffle: draw_pile", extra=""),
}


def write_editions(folder) -> dict:
    """Write every edition (and their card library) into ``folder``; name -> path."""
    (folder / "coins.yaml").write_text(CARDS, encoding="utf-8")
    paths = {}
    for name, parts in EDITIONS.items():
        path = folder / f"{name}.yaml"
        path.write_text(_EDITION.format(id=name, **parts), encoding="utf-8")
        paths[name] = str(path)
    return paths
