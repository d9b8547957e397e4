"""What a seat knows, checked move by move against the physical game (issue 41).

The table keeps, for every card, the seats that know its face and place, and each
move updates those bits by the rules of engine/table.py. This module checks the
rules from outside, at every move of whole seeded games:

* **twin moves**: when one card leaves a hand without being seen (a random steal,
  a Favor, a card played face down), which card it was is something only the hand's
  owner and whoever receives it can tell. So the same move made with another card of
  that hand (the twin) must leave every other seat with the same knowledge and the
  same event text, card for card. A seat that could tell the two apart has been told
  something it could not see.
* **nothing forgotten without a cause**: a hand's owner never forgets a card it gave;
  a seat that receives a card keeps what it knew of the giver's other cards, but for
  copies of the card it received (it cannot tell which copy came); and a move forgets
  nothing about cards of zones it neither took from nor put into.

Both watch ``Table.move`` by wrapping it, which only the pure-Python core allows: on
the compiled core the tests run this module in a copy of the sources (see
tests/test_knowledge.py). Run directly, it checks every shipped edition and example
and prints what it finds: ``python tests/knowledge_check.py [games]``.
"""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path

from kittens.interpreter.engine.events import for_seat
from kittens.interpreter.engine.table import HAND, PILE, PUBLIC, Table


def knowledge(table, seat: int) -> list:
    """What ``seat`` knows of the cards outside its own hand: (zone, place in a pile or
    None, card id), sorted (a hand is a set; a pile is ordered)."""
    bit, found = 1 << seat, []
    for zone in table.zones():
        if zone.kind == PUBLIC or (zone.kind == HAND and zone.owner == seat):
            continue
        for place, inst in enumerate(zone.cards):
            if inst.known & bit:
                found.append((zone.name, place if zone.kind == PILE else None, inst.id))
    return sorted(found, key=repr)


def _hidden_in_hand(table, inst, in_sight) -> bool:
    """Whether nobody but the hand's owner can tell this card from the hand's others."""
    marked = table._marked and inst.card.back_distinct
    return not (inst.face_up or marked or (in_sight or {}).get(inst.uid, 0) == table.everyone)


class Findings:
    """What the checks found, by kind, with the first few cases of each."""

    def __init__(self) -> None:
        self.counts: dict = {}
        self.cases: dict = {}
        self.twins = 0  # twin moves compared

    def add(self, kind: str, case: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self.cases.setdefault(kind, [])
        if len(self.cases[kind]) < 3:
            self.cases[kind].append(case)

    def __bool__(self) -> bool:
        return bool(self.counts)

    def report(self) -> str:
        lines = [f"{kind}: {count}" + "".join(f"\n    {case}" for case in self.cases[kind])
                 for kind, count in sorted(self.counts.items())]
        return "\n".join(lines) or "nothing found"


def _twin_check(table, cards, to, at, face_up, in_sight, findings: Findings, label: str):
    """The twin of a move of one hidden card out of a hand (None when the move is not
    one): a copy of the table that moves another card of that hand instead."""
    if len(cards) != 1 or face_up or to.kind == PUBLIC:
        return None
    inst = cards[0]
    source = inst.zone
    if source.kind != HAND or not _hidden_in_hand(table, inst, in_sight):
        return None
    others = [other for other in source.cards
              if other.id != inst.id and _hidden_in_hand(table, other, in_sight)]
    if not others:
        return None
    memo: dict = {}
    twin = table.copy(memo)
    swapped = memo[id(others[len(table.log.rows) % len(others)])]
    sighted = (in_sight or {}).get(inst.uid, 0) | (in_sight or {}).get(swapped.uid, 0)
    return twin, swapped, memo[id(to)], sighted


def _compare_twins(table, twin, source, to, sighted: int, before: int, findings: Findings, label: str) -> None:
    """Every seat but those who may tell the twins apart (the hand's owner, a receiving
    hand's owner, seats that have just been shown either card) must see them alike."""
    tellers = {source.owner} | ({to.owner} if to.kind == HAND else set()) | \
        {seat for seat in range(table.players) if sighted >> seat & 1}
    findings.twins += 1
    for seat in range(table.players):
        if seat in tellers:
            continue
        mine, theirs = knowledge(table, seat), knowledge(twin, seat)
        if mine != theirs:
            findings.add("twin moves told apart by knowledge",
                         f"{label}: seat {seat} after {source.name} -> {to.name}: {mine} / {theirs}")
        said = [for_seat(e, seat) for e in table.log.events[before:]]
        said_twin = [for_seat(e, seat) for e in twin.log.events[before:]]
        if said != said_twin:
            findings.add("twin moves told apart by events",
                         f"{label}: seat {seat} read {said} / {said_twin}")


def _forgotten(table, known_before: dict, moved: set, sources: set, into) -> list:
    """(seat, card) pairs a seat knew before the move and not after, of cards the move did
    not carry, that lie in a zone it neither took from nor put into."""
    lost = []
    for inst, known in known_before.items():
        if inst in moved or inst.zone in sources or inst.zone is into:
            continue
        gone = known & ~inst.known
        if gone:
            lost.extend((seat, inst) for seat in range(table.players) if gone >> seat & 1)
    return lost


def _role_losses(table, cards, sources: dict, to, known_before: dict, findings: Findings, label: str) -> None:
    """What the owners of a hand-to-hand move must keep: the giver the card it gave, the
    receiver what it knew of the giver's other cards (but for copies of what came)."""
    for inst in cards:
        source = sources[inst]
        if source.kind != HAND or to.kind == PUBLIC:
            continue
        giver = 1 << source.owner
        if known_before[inst] & giver and not inst.known & giver and to.kind == HAND:
            findings.add("the giver forgot the card it gave", f"{label}: {inst} {source.name} -> {to.name}")
        if to.kind != HAND or to.owner == source.owner:
            continue
        taker = 1 << to.owner
        came = {card.id for card in cards}
        for other in source.cards:
            if known_before.get(other, 0) & taker and not other.known & taker and other.id not in came:
                findings.add("the receiver forgot the giver's other cards",
                             f"{label}: seat {to.owner} forgot {other} in {source.name} after taking {inst}")


@contextlib.contextmanager
def watching(findings: Findings, label: list):
    """Check every ``Table.move`` made inside the block (pure-Python core only)."""
    plain = Table.move
    depth = [0]

    def move(self, cards, to, at=0, face_up=False, in_sight=None):
        options = {} if in_sight is None else {"in_sight": in_sight}
        cards = list(cards)
        if depth[0] or not cards:  # a move made by a move (a card sent home): its caller is checked
            return plain(self, cards, to, at, face_up, **options)
        depth[0] += 1
        try:
            twin = _twin_check(self, cards, to, at, face_up, in_sight, findings, label[0])
            sources = {inst: inst.zone for inst in cards}
            known_before = {inst: inst.known for inst in self.cards}
            before = len(self.log.rows)
            plain(self, cards, to, at, face_up, **options)
            if twin is not None:
                copy, swapped, into, sighted = twin
                plain(copy, [swapped], into, at, face_up, **options)
                _compare_twins(self, copy, sources[cards[0]], to, sighted, before, findings, label[0])
            for seat, inst in _forgotten(self, known_before, set(cards), set(sources.values()), to):
                findings.add("forgotten by a move elsewhere", f"{label[0]}: seat {seat} forgot {inst}")
            _role_losses(self, cards, sources, to, known_before, findings, label[0])
        finally:
            depth[0] -= 1

    Table.move = move
    try:
        yield findings
    finally:
        Table.move = plain


def play_watched(game, seeds, findings: Findings, label: str, bots=None) -> None:
    """Play seeded games of ``game`` with random picks (or ``bots``), every move checked."""
    tag = [label]
    with watching(findings, tag):
        for seed in seeds:
            tag[0] = f"{label} seed {seed}"
            state = game.new_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                options = state.legal_actions()
                state.apply_action(options[rng.randrange(len(options))])


def rule_files(root=None) -> list:
    """Every shipped edition and every example edition, house rule or expansion of the
    checkout (paths)."""
    root = Path(root) if root else Path(__file__).resolve().parents[1]
    found = sorted((root / "editions").glob("*.yaml"))
    found += sorted(path for path in (root / "examples").rglob("*.yaml")
                    if "scenarios" not in path.parts
                    and not any(part.startswith(".") for part in path.relative_to(root).parts)
                    and any(f"kind: {kind}" in path.read_text() for kind in ("edition", "expansion")))
    return found


def player_counts(edition) -> list:
    """The fewest and most players the edition allows, and three between when it can."""
    low, high = edition.players
    return sorted({low, min(max(low, 3), high), high})


def games_to_check(games: int, only: str | None = None, under: str | None = None):
    """(label, Game, number of games) for every rule file and every variant of it: the
    files with all their games, each variant with a third of them."""
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.rules.load import load_edition
    root = Path(__file__).resolve().parents[1]
    for path in rule_files(root):
        if (only and only not in path.name) or (under and not path.is_relative_to(root / under)):
            continue
        edition = load_edition(str(path))
        ways = [(path.name, edition, games)]
        ways += [(f"{path.name}@{name}", variant, max(1, games // 3))
                 for name, variant in sorted(edition.variants.items())]
        for label, rules, count in ways:
            for players in player_counts(rules):
                yield f"{label} {players}p", Game(rules, players), count


def check_all(games: int, only: str | None = None, under: str | None = None) -> Findings:
    findings = Findings()
    for label, game, count in games_to_check(games, only, under):
        play_watched(game, range(count), findings, label)
    return findings


# -- leaks planted on purpose: the checks above must find them ---------------------------
def _plant_known_to_all() -> None:
    """The leak of before issue 41: a card every seat knew is seen leaving its hand."""
    plain = Table._left_hand

    def left_hand(self, inst, source, shown, sighted):
        return self.everyone if inst.known == self.everyone else plain(self, inst, source, shown, sighted)
    Table._left_hand = left_hand


def _plant_forgetful_receiver() -> None:
    """The loss of before issue 41: whoever receives a card forgets the giver's hand."""
    plain = Table._left_hand

    def left_hand(self, inst, source, shown, sighted):
        for other in source.cards:
            other.known &= ~shown
        return plain(self, inst, source, shown, sighted)
    Table._left_hand = left_hand


PLANTS = {"known-to-all": _plant_known_to_all, "forgetful-receiver": _plant_forgetful_receiver}


def main(argv: list) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=20, help="seeded games per file and player count")
    parser.add_argument("--plant", choices=sorted(PLANTS), help="plant a known leak first (to see it found)")
    parser.add_argument("--only", help="only the rule files whose name holds this")
    parser.add_argument("--under", help="only the rule files under this folder of the checkout (editions/, examples/)")
    options = parser.parse_args(argv)
    if options.plant:
        PLANTS[options.plant]()
    from kittens.about import engine_core
    if engine_core() != "python":
        print("the checks wrap Table.move: run them on the pure-Python sources", file=sys.stderr)
        return 2
    found = check_all(options.games, options.only, options.under)
    print(f"twin moves compared: {found.twins}")
    print(found.report())
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
