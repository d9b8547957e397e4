"""The end of a game in plain words: who went out when and to what, what each seat
played and answered, the scores and ties, who won; and each person's results across a
table's games (its rematches).

Everything is read from the game's public events: each event as a watcher gets it
(``events.for_seat`` with a seat no secret is shown to), so no reader learns a card
from the summary that the table did not show everyone. A card a player drew counts as
what put them out only when it was shown to all (an Exploding Kitten is revealed).
The sentences are said from the reader's side ("you" for the reader's seat).
"""

from __future__ import annotations

from collections import Counter

from ..interpreter.engine.endings import no_winner
from ..interpreter.engine.events import for_seat
from .words import Words

#: the seat number events are read with: no secret mask holds it (a watcher's events)
PUBLIC = 64


class _Tally:
    """What the public events said, game long."""

    def __init__(self, players: int) -> None:
        self.turn = 0  # the number of the turn under way
        self.played = [Counter() for _ in range(players)]  # card or combo id -> times played
        self.answered = [Counter() for _ in range(players)]  # card id -> times answered with
        self.cancelled = 0
        self.shown: dict = {}  # seat -> (card, turn): the last card everyone saw reach them
        self.out: list = []  # (seat, turn, card or None), in the order they went out
        self.scores = None
        self.winners: list = []
        self.reason = None
        self.over = False

    def read(self, event: dict) -> None:
        kind = event["type"]
        if kind == "turn":
            self.turn = event["number"]
        elif kind == "play" and "seat" in event and "action" not in event:
            self.played[event["seat"]][event.get("card") or event.get("combo")] += 1
        elif kind == "answer":
            self.answered[event["seat"]][event["card"]] += 1
        elif kind == "cancelled":
            self.cancelled += 1
        elif kind == "move" and event.get("card") and event["to"].startswith("hand "):
            self.shown[int(event["to"].split()[1])] = (event["card"], self.turn)  # seen by all as it moved
        elif kind == "reveal":
            for card, zone in zip(event["cards"], event["zones"]):
                if zone.startswith("hand "):
                    self.shown[int(zone.split()[1])] = (card, self.turn)
        elif kind == "out":
            seat = event["seat"]
            card, turn = self.shown.get(seat, (None, None))
            self.out.append((seat, self.turn, card if turn == self.turn else None))
        elif kind == "seat_back":
            self.out = [entry for entry in self.out if entry[0] != event["seat"]]
        elif kind == "scores":
            self.scores = list(event["scores"])
        elif kind == "game_over":
            self.over = True
            self.reason = event.get("reason")
            self.winners = list(event.get("winners") or
                                ([event["winner"]] if event.get("winner") is not None else []))


def tally(events: list, players: int) -> _Tally:
    """The public events of a game, summed up."""
    found = _Tally(players)
    for event in events:
        seen = for_seat(event, PUBLIC)
        if seen is not None:
            found.read(seen)
    return found


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _counted(words: Words, counts: Counter) -> str:
    """ "3 Skip, 2 Attack and Favor": most played first, then by title."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], words.title(item[0])))
    return _list([(f"{n} " if n > 1 else "") + words.title(rule_id) for rule_id, n in ordered])


def _points(score) -> str:
    return f"{score} point" + ("" if score == 1 else "s")


def result_lines(words: Words, found: _Tally, viewer) -> list[str]:
    """Who won, the scores and any tie, in sentences (a seat that went out is marked so
    in the scores: a score does not bring it back)."""
    lines = []
    gone = {seat for seat, _turn, _card in found.out}
    winners, scores = found.winners, found.scores
    names = [words.Who(seat, viewer) if i == 0 else words.who(seat, viewer) for i, seat in enumerate(winners)]
    if not winners:
        lines.append(f"Nobody wins: {no_winner(found.reason)}.")
    else:
        verb = "win" if len(winners) > 1 or winners[0] == viewer else "wins"
        if scores is not None:
            best = {scores[seat] for seat in winners}
            said = f" with {_points(best.pop())}" if len(best) == 1 else ""
            lines.append(f"{_list(names)} {verb}{said}.")
        else:
            lines.append(f"{_list(names)} {verb}.")
    if scores is not None:
        lines.append("Scores: " + ", ".join(f"{words.who(seat, viewer)} {score}" + (" (out)" if seat in gone else "")
                                            for seat, score in sorted(enumerate(scores), key=lambda x: -x[1])) + ".")
        top = max(scores) if scores else None
        level = [seat for seat, score in enumerate(scores) if score == top]
        if len(level) > 1:
            tied = _list([words.who(seat, viewer) for seat in level])
            if set(level) == set(winners):
                lines.append(f"A tie: {tied} share the win on {_points(top)}.")
            elif winners:
                lines.append(f"{tied[:1].upper() + tied[1:]} tie on {_points(top)}; the tie-break decides.")
    return lines


def summary(words: Words, events: list, players: int, viewer, series: list | None = None) -> dict:
    """The finished game in sentences, from ``viewer``'s side (a seat, or None for a
    watcher), and each seat's result (won, score, turn out) for the table's series.
    ``series``: the results of the table's earlier games (oldest first), each seat one
    place on per game, as :func:`series_lines` reads them."""
    found = tally(events, players)
    lines = []
    for seat, turn, card in found.out:
        to = f", to {'the ' if not words.title(card).lower().startswith('the ') else ''}{words.title(card)}" \
            if card is not None else ""
        lines.append(f"{words.Who(seat, viewer)} went out on turn {turn}{to}.")
    lines += result_lines(words, found, viewer)
    idle = [seat for seat in range(players) if not found.played[seat] and not found.answered[seat]]
    for seat in range(players):
        played, answered = found.played[seat], found.answered[seat]
        if seat in idle:
            continue
        said = []
        if played:
            total = sum(played.values())
            said.append(f"made {total} play{'s' if total != 1 else ''} ({_counted(words, played)})")
        if answered:
            total = sum(answered.values())
            said.append(f"answered {total} time{'s' if total != 1 else ''} ({_counted(words, answered)})")
        lines.append(f"{words.Who(seat, viewer)} " + " and ".join(said) + ".")
    if idle:  # those who played nothing, in one line
        named = _list([words.Who(seat, viewer) if i == 0 else words.who(seat, viewer) for i, seat in enumerate(idle)])
        lines.append("Nobody made a play." if len(idle) == players else f"{named} made no play.")
    if found.cancelled:
        lines.append(f"{found.cancelled} play{'s were' if found.cancelled != 1 else ' was'} cancelled.")
    lines.append(f"The game lasted {found.turn} turn{'s' if found.turn != 1 else ''}.")
    out_turns = {seat: turn for seat, turn, _card in found.out}
    results = [{"won": seat in found.winners, "score": found.scores[seat] if found.scores else None,
                "out": out_turns.get(seat)} for seat in range(players)]
    return {"lines": lines, "results": results,
            "series": series_lines(words, list(series or []) + [results], players, viewer)}


def series_lines(words: Words, games: list, players: int, viewer) -> list[str]:
    """Each person's results across the table's games (``games`` oldest first, this one
    last; at every rematch each person sat one seat on). Nothing for a single game."""
    if len(games) < 2:
        return []
    last = len(games) - 1
    wins, points = Counter(), Counter()
    for number, results in enumerate(games):
        for seat, result in enumerate(results):
            now = (seat + last - number) % players  # where that person sits in this game
            wins[now] += bool(result.get("won"))
            if isinstance(result.get("score"), int):
                points[now] += result["score"]
    parts = []
    for seat in sorted(range(players), key=lambda s: (-wins[s], -points[s], s)):
        said = f"{words.who(seat, viewer)} {wins[seat]} win{'s' if wins[seat] != 1 else ''}"
        parts.append(said + (f" ({_points(points[seat])})" if points else ""))
    return [f"Across this table's {len(games)} games: " + ", ".join(parts) + "."]
