"""Game records summed as they arrive, in memory that does not grow with the games.

Every figure is a whole-number count or sum (sums of squares and products
included, for variances and paired tests), so a :class:`Tally` is the same
whatever order its games arrive in and however they were split between
processes: :meth:`Tally.merge` of partial tallies equals adding every record
to one. Game lengths are kept as histograms (a count per number of turns),
bounded by the engine's turn limit, from which quantiles are exact.
"""

from __future__ import annotations


def _bump(counts: dict, key, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


def _add_into(mine: dict, other: dict) -> None:
    for key, value in other.items():
        mine[key] = mine.get(key, 0) + value


class Moments:
    """n, sum and sum of squares of whole numbers, and their histogram."""

    __slots__ = ("n", "s", "ss", "hist")

    def __init__(self) -> None:
        self.n = self.s = self.ss = 0
        self.hist: dict = {}

    def add(self, x: int) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x
        hist = self.hist
        hist[x] = hist.get(x, 0) + 1

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss
        _add_into(self.hist, other.hist)

    def __eq__(self, other) -> bool:
        return isinstance(other, Moments) and (self.n, self.s, self.ss, self.hist) == \
            (other.n, other.s, other.ss, other.hist)

    def __getstate__(self):
        return (self.n, self.s, self.ss, self.hist)

    def __setstate__(self, state) -> None:
        self.n, self.s, self.ss, self.hist = state


# per card: how often played, games it was played in, plays cancelled, draws, copies in
# hands at the end; then seat-games in which a seat played it (and won), and in which a
# seat held it without playing it (and won); times spent in combos; and the sums of the
# squares of its plays and draws per game (for the intervals of plays and draws per game)
CARD_FIELDS = ("plays", "games_played", "noped", "drawn", "held_at_end",
               "played_n", "played_won", "held_n", "held_won", "in_combos", "plays_ss", "drawn_ss")
_PLAYS, _GAMES, _NOPED, _DRAWN, _END, _PN, _PW, _HN, _HW, _COMBO, _PSS, _DSS = range(len(CARD_FIELDS))


class Tally:
    """The sums of many games of one ruleset at one player count."""

    def __init__(self, players: int, teams: int = 0) -> None:
        self.players = players
        self.teams = teams
        self.games = 0
        self.wins = [0] * players  # seat -> games it won (every member of a winning team)
        self.team_wins = [0] * teams
        self.no_winner = 0
        self.ends: dict = {}  # why games ended -> games
        self.first_games = self.first_wins = 0
        self.bots: dict = {}  # bot name -> [seat-games, wins]
        self.bot_seats: dict = {}  # (bot name, seat) -> [seat-games, wins]
        self.turns = Moments()
        self.decisions = Moments()
        self.out_order: dict = {}  # k-th elimination (1, 2, ...) -> Moments of its turn
        self.out_seat = [0] * players  # seat -> games it went out in
        self.cards: dict = {}  # card id -> counts, see CARD_FIELDS
        self.combos: dict = {}  # combo id -> [plays, noped]
        self.blind_plays = 0
        self.scores: list = []  # seat -> Moments of its final score (games won on points)

    def _card(self, card_id: str) -> list:
        found = self.cards.get(card_id)
        if found is None:
            found = self.cards[card_id] = [0] * len(CARD_FIELDS)
        return found

    def add(self, record: dict) -> None:
        """Count one game's record (see play.play_record)."""
        self.games += 1
        winners = record["w"]
        won = 0
        for seat in winners:
            self.wins[seat] += 1
            won |= 1 << seat
        if winners:
            if self.teams:  # the team as the game dealt it; a record without one was seated in turn
                team = record.get("wt")
                self.team_wins[winners[0] % self.teams if team is None else team] += 1
        else:
            self.no_winner += 1
        _bump(self.ends, record["end"] or "unknown")
        first = record["f"]
        self.first_games += 1
        self.first_wins += (won >> first) & 1
        bots, bot_seats = self.bots, self.bot_seats
        for seat, name in enumerate(record["b"]):
            win = (won >> seat) & 1
            bot = bots.get(name)
            if bot is None:
                bot = bots[name] = [0, 0]
            bot[0] += 1
            bot[1] += win
            key = (name, seat)
            by_seat = bot_seats.get(key)
            if by_seat is None:
                by_seat = bot_seats[key] = [0, 0]
            by_seat[0] += 1
            by_seat[1] += win
        self.turns.add(record["t"])
        self.decisions.add(record["d"])
        scores = record.get("s")
        if scores is not None:
            if not self.scores:
                self.scores = [Moments() for _ in range(self.players)]
            for seat, score in enumerate(scores):
                self.scores[seat].add(score)
        went_out = 0  # the seats that went out in this game (one who came back may go out again)
        for k, (seat, turn) in enumerate(record["out"], start=1):
            moments = self.out_order.get(k)
            if moments is None:
                moments = self.out_order[k] = Moments()
            moments.add(turn)
            if not went_out >> seat & 1:
                went_out |= 1 << seat
                self.out_seat[seat] += 1
        self._add_cards(record, won)

    def _add_cards(self, record: dict, won: int) -> None:
        played: dict = {}  # card id -> bit mask of the seats that played it
        plays: dict = {}  # card id -> its plays in this game, all seats together
        for seat, card_id, count in record["p"]:
            if card_id == "(blind)":
                self.blind_plays += count
                continue
            plays[card_id] = plays.get(card_id, 0) + count
            played[card_id] = played.get(card_id, 0) | (1 << seat)
        for card_id, count in plays.items():
            counts = self._card(card_id)
            counts[_PLAYS] += count
            counts[_PSS] += count * count
        for seat, combo, count in record["c"]:
            found = self.combos.get(combo)
            if found is None:
                found = self.combos[combo] = [0, 0]
            found[0] += count
        for seat, card_id, count in record.get("u", ()):  # cards spent in combos count as played
            self._card(card_id)[_COMBO] += count
            played[card_id] = played.get(card_id, 0) | (1 << seat)
        for key, count in record["n"].items():
            if key in self.combos:
                self.combos[key][1] += count
            else:
                self._card(key)[_NOPED] += count
        for card_id, count in record["dr"].items():
            counts = self._card(card_id)
            counts[_DRAWN] += count
            counts[_DSS] += count * count
        for card_id, count in record["e"].items():
            self._card(card_id)[_END] += count
        for card_id, mask in record["h"].items():
            counts = self._card(card_id)
            by = played.get(card_id, 0)
            if by:
                counts[_GAMES] += 1
                counts[_PN] += _bits(by)
                counts[_PW] += _bits(by & won)
            held = mask & ~by
            if held:
                counts[_HN] += _bits(held)
                counts[_HW] += _bits(held & won)

    def merge(self, other: "Tally") -> None:
        """Add another tally of the same ruleset and players (its games are added to these)."""
        self.games += other.games
        for seat in range(self.players):
            self.wins[seat] += other.wins[seat]
            self.out_seat[seat] += other.out_seat[seat]
        for team in range(self.teams):
            self.team_wins[team] += other.team_wins[team]
        self.no_winner += other.no_winner
        _add_into(self.ends, other.ends)
        self.first_games += other.first_games
        self.first_wins += other.first_wins
        for mine, theirs in ((self.bots, other.bots), (self.bot_seats, other.bot_seats),
                             (self.cards, other.cards), (self.combos, other.combos)):
            for key, values in theirs.items():
                found = mine.get(key)
                if found is None:
                    mine[key] = list(values)
                else:
                    for i, value in enumerate(values):
                        found[i] += value
        self.turns.merge(other.turns)
        self.decisions.merge(other.decisions)
        for k, moments in other.out_order.items():
            self.out_order.setdefault(k, Moments()).merge(moments)
        self.blind_plays += other.blind_plays
        if other.scores:
            if not self.scores:
                self.scores = [Moments() for _ in range(self.players)]
            for mine, theirs in zip(self.scores, other.scores):
                mine.merge(theirs)

    def __eq__(self, other) -> bool:
        return isinstance(other, Tally) and vars(self) == vars(other)


def _bits(mask: int) -> int:
    return mask.bit_count()


class PairedMoments:
    """Sums for paired numbers (a, b) of the same games: a, b, a², b², ab."""

    __slots__ = ("n", "sa", "sb", "saa", "sbb", "sab")

    def __init__(self) -> None:
        self.n = self.sa = self.sb = self.saa = self.sbb = self.sab = 0

    def add(self, a: int, b: int) -> None:
        self.n += 1
        self.sa += a
        self.sb += b
        self.saa += a * a
        self.sbb += b * b
        self.sab += a * b

    def merge(self, other: "PairedMoments") -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def __eq__(self, other) -> bool:
        return isinstance(other, PairedMoments) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __getstate__(self):
        return tuple(getattr(self, n) for n in self.__slots__)

    def __setstate__(self, state) -> None:
        for name, value in zip(self.__slots__, state):
            setattr(self, name, value)


#: what Paired follows per card, game by game: plays, plays cancelled, times spent in a
#: combo, draws and copies in hand at the end (the figures of a card's row in a summary)
PAIRED_CARD_FIGURES = ("plays", "noped", "in_combos", "drawn", "held_at_end")


class Paired:
    """The same games (same seeds, same bots by seat) under a baseline and another ruleset."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.turns = PairedMoments()
        self.decisions = PairedMoments()
        self.seat_wins = [PairedMoments() for _ in range(players)]
        self.no_winner = PairedMoments()
        self.first_wins = PairedMoments()
        # figure (PAIRED_CARD_FIGURES) -> card id -> PairedMoments of it per game
        self.cards: dict = {figure: {} for figure in PAIRED_CARD_FIGURES}
        self.bot_wins: dict = {}  # bot name -> PairedMoments of its seats' wins per game

    def add(self, a: dict, b: dict) -> None:
        self.turns.add(a["t"], b["t"])
        self.decisions.add(a["d"], b["d"])
        won_a, won_b = set(a["w"]), set(b["w"])
        for seat in range(self.players):
            self.seat_wins[seat].add(seat in won_a, seat in won_b)
        self.no_winner.add(not won_a, not won_b)
        self.first_wins.add(a["f"] in won_a, b["f"] in won_b)
        bots = a["b"]  # the same bots at the same seats under every ruleset
        for name in set(bots):
            found = self.bot_wins.get(name)
            if found is None:
                found = self.bot_wins[name] = PairedMoments()
            found.add(sum(1 for seat in won_a if bots[seat] == name),
                      sum(1 for seat in won_b if b["b"][seat] == name))
        games = self.turns.n
        figures_a, figures_b = _card_figures(a), _card_figures(b)
        for figure in PAIRED_CARD_FIGURES:
            _add_paired(self.cards[figure], figures_a[figure], figures_b[figure], games)

    def merge(self, other: "Paired") -> None:
        before = self.turns.n
        for name in ("turns", "decisions", "no_winner", "first_wins"):
            getattr(self, name).merge(getattr(other, name))
        for mine, theirs in zip(self.seat_wins, other.seat_wins):
            mine.merge(theirs)
        for name, theirs in other.bot_wins.items():
            self.bot_wins.setdefault(name, PairedMoments()).merge(theirs)
        for figure in PAIRED_CARD_FIGURES:
            mine, theirs = self.cards[figure], other.cards[figure]
            for card_id in set(mine) | set(theirs):
                found = mine.get(card_id)
                if found is None:
                    found = mine[card_id] = PairedMoments()
                    found.n = before  # those games had none of it
                counted = theirs.get(card_id)
                if counted is None:
                    found.n += other.turns.n
                else:
                    found.merge(counted)

    def __eq__(self, other) -> bool:
        return isinstance(other, Paired) and vars(self) == vars(other)


def _add_paired(moments: dict, a: dict, b: dict, games: int) -> None:
    """Add one game's counts by card (``a`` and ``b``, the game under each ruleset) to
    ``moments``; every card seen before gets its zero, and a card first seen now its
    zeros for the ``games - 1`` games before."""
    for card_id in set(a) | set(b) | set(moments):
        found = moments.get(card_id)
        if found is None:
            found = moments[card_id] = PairedMoments()
            found.n = games - 1
        found.add(a.get(card_id, 0), b.get(card_id, 0))


def _card_figures(record: dict) -> dict:
    """One game's counts by card of each of PAIRED_CARD_FIGURES."""
    plays: dict = {}
    for _seat, card_id, count in record["p"]:
        if card_id != "(blind)":
            plays[card_id] = plays.get(card_id, 0) + count
    combos = {combo for _seat, combo, _count in record["c"]}
    in_combos: dict = {}
    for _seat, card_id, count in record.get("u", ()):
        in_combos[card_id] = in_combos.get(card_id, 0) + count
    noped = {key: count for key, count in record["n"].items() if key not in combos}
    return {"plays": plays, "noped": noped, "in_combos": in_combos, "drawn": record["dr"],
            "held_at_end": record["e"]}


class Lab:
    """Everything a run sums up: a Tally per ruleset and, with several, each one paired
    with the first (the baseline)."""

    def __init__(self, arms: int, players: int, teams: list) -> None:
        self.tallies = [Tally(players, t) for t in teams]
        self.paired = [Paired(players) for _ in range(arms - 1)]

    @property
    def games(self) -> int:
        return self.tallies[0].games

    def add(self, record: dict) -> None:
        """One game index: its record under every ruleset (``record["r"]``)."""
        runs = record["r"]
        for tally, run in zip(self.tallies, runs):
            tally.add(run)
        for paired, run in zip(self.paired, runs[1:]):
            paired.add(runs[0], run)

    def merge(self, other: "Lab") -> None:
        for mine, theirs in zip(self.tallies, other.tallies):
            mine.merge(theirs)
        for mine, theirs in zip(self.paired, other.paired):
            mine.merge(theirs)

    def __eq__(self, other) -> bool:
        return isinstance(other, Lab) and self.tallies == other.tallies and self.paired == other.paired
