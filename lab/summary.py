"""The numbers a designer reads, worked out from the lab's sums (see stats.py).

:func:`summarize` turns one ruleset's :class:`~.tally.Tally` into a plain
dict (every figure with its 95% interval, ready for JSON); :func:`sweep_curve`
lines the points of a sweep up. What one ruleset changes against another is
comparison.py's.
"""

from __future__ import annotations

from . import stats
from .tally import CARD_FIELDS

SIGNIFICANT = 0.05


def card_info(edition, players: int) -> dict:
    """Card id -> whether it is in the deck at ``players``, whether anyone could ever
    play it (on a turn, in answer, or in a combo: what the never-played flag needs), and
    whether its Nopes are counted (not for a card only ever played in answer, such as a
    Nope: the engine does not report an answer cancelled inside a chain)."""
    deck = {card_id for card_id, copies in edition.deck_for(players).items() if copies}
    combos = list(edition.combos)
    return {card_id: {"in_deck": card_id in deck,
                      "playable": card.when != "never" or
                      (not card.lethal and any(c.may_include(card) for c in combos)),
                      "noped_counted": card.when != "reaction"}
            for card_id, card in edition.cards.items()}


def _moments(m, with_hist: bool = True) -> dict:
    out = stats.mean(m.n, m.s, m.ss)
    out["quantiles"] = stats.quantiles(m.hist)
    if m.hist:
        out["min"], out["max"] = min(m.hist), max(m.hist)
    if with_hist:
        out["histogram"] = [[value, count] for value, count in sorted(m.hist.items())]
    return out


def summarize(tally, *, label: str = "", cards: dict | None = None) -> dict:
    """Everything about one ruleset's games, with 95% intervals."""
    n, players = tally.games, tally.players
    won_slots = sum(tally.wins)
    chance = won_slots / (n * players) if n else None  # any seat's rate if seats were equal
    seat_chance = (1 / tally.teams) if tally.teams else 1 / players
    out = {"label": label, "games": n, "players": players,
           "chance_rate": chance,
           "seats": [{"seat": seat, **stats.rate(tally.wins[seat], n)} for seat in range(players)],
           "fairness": stats.fairness(tally.team_wins if tally.teams else tally.wins)}
    if tally.teams:
        out["teams"] = [{"team": team, **stats.rate(tally.team_wins[team], n)}
                        for team in range(tally.teams)]
    out["first_player"] = {**stats.rate(tally.first_wins, tally.first_games, seat_chance)}
    if tally.scores:  # a game won on points: each seat's mean final score
        out["scores"] = [{"seat": seat, **stats.mean(m.n, m.s, m.ss)} for seat, m in enumerate(tally.scores)]
    out["turns"] = _moments(tally.turns)
    out["decisions"] = _moments(tally.decisions)
    out["eliminations"] = {
        "order": [{"order": k, "games": m.n, "turn": stats.mean(m.n, m.s, m.ss)}
                  for k, m in sorted(tally.out_order.items())],
        "by_seat": [{"seat": seat, **stats.rate(tally.out_seat[seat], n)} for seat in range(players)]}
    limited = sum(count for reason, count in tally.ends.items() if reason.endswith("_limit"))
    out["limits"] = {**stats.rate(limited, n), "ends": dict(sorted(tally.ends.items()))}
    out["no_winner"] = stats.rate(tally.no_winner, n)
    out["bots"] = [{"bot": name, "seat_games": seat_games, **stats.rate(wins, seat_games, chance)}
                   for name, (seat_games, wins) in sorted(tally.bots.items())] if n else []
    out["bots_by_seat"] = [{"bot": name, "seat": seat, **stats.rate(wins, seat_games)}
                           for (name, seat), (seat_games, wins) in sorted(tally.bot_seats.items())]
    out["cards"] = _cards(tally, cards or {})
    out["combos"] = [{"combo": combo, "plays": plays, "per_game": plays / n if n else None,
                      "noped": noped, "noped_share": noped / plays if plays else None}
                     for combo, (plays, noped) in sorted(tally.combos.items())]
    out["blind_plays"] = tally.blind_plays
    return out


def _cards(tally, info: dict) -> list:
    n = tally.games
    rows = []
    for card_id in sorted(set(tally.cards) | {c for c, i in info.items() if i["in_deck"]}):
        counts = dict(zip(CARD_FIELDS, tally.cards.get(card_id, [0] * len(CARD_FIELDS))))
        counted = info.get(card_id, {}).get("noped_counted", True)
        plays_ss, drawn_ss = counts.pop("plays_ss"), counts.pop("drawn_ss")
        used = counts["plays"] + counts["in_combos"]
        row = {"card": card_id, **counts,
               "plays_per_game": counts["plays"] / n if n else None,
               "plays_per_game_ci": stats.mean(n, counts["plays"], plays_ss)["ci"],
               "share_of_games_played": counts["games_played"] / n if n else None,
               "noped_share": counts["noped"] / counts["plays"] if counts["plays"] and counted else None,
               "noped_counted": counted,
               "drawn_per_game": counts["drawn"] / n if n else None,
               "drawn_per_game_ci": stats.mean(n, counts["drawn"], drawn_ss)["ci"],
               "held_at_end_per_game": counts["held_at_end"] / n if n else None,
               "win_when_played": stats.rate(counts["played_won"], counts["played_n"]),
               "win_when_held_not_played": stats.rate(counts["held_won"], counts["held_n"]),
               "played_minus_held": stats.two_rates(counts["played_won"], counts["played_n"],
                                                    counts["held_won"], counts["held_n"])}
        known = info.get(card_id)
        row["never_played"] = bool(n and used == 0 and known and known["in_deck"] and known["playable"])
        rows.append(row)
    return rows


# -- sweeps -----------------------------------------------------------------------------
def seat_spread(summary: dict) -> float | None:
    """The largest distance of a seat's win rate from the chance rate (0: perfectly fair)."""
    chance = summary["chance_rate"]
    rates = [seat["rate"] for seat in summary["seats"] if seat["rate"] is not None]
    if chance is None or not rates:
        return None
    return max(abs(r - chance) for r in rates)


METRICS_HELP = ("turns, decisions, first_player, no_winner, limits, seat_spread, fairness_p, "
                "seat:N, team:N, bot:NAME, card:ID (plays per game), noped:ID, drawn:ID, out:K "
                "(the turn the K-th player goes out)")


def metric(summary: dict, name: str) -> dict:
    """One figure of a summary by name (see METRICS_HELP): its value and 95% interval.
    ``KeyError`` for a name that names nothing."""
    kind, _, arg = name.partition(":")
    n = summary["games"] or None
    if not arg:
        if kind in ("turns", "decisions"):
            return {"value": summary[kind]["mean"], "ci": summary[kind]["ci"]}
        if kind in ("first_player", "no_winner", "limits"):
            return {"value": summary[kind]["rate"], "ci": summary[kind]["ci"]}
        if kind == "seat_spread":
            return {"value": seat_spread(summary), "ci": None}
        if kind == "fairness_p":
            return {"value": summary["fairness"]["p_value"], "ci": None}
    elif kind in ("seat", "team"):
        rows = summary["seats" if kind == "seat" else "teams"]
        row = rows[int(arg)] if arg.isdigit() and int(arg) < len(rows) else None
        if row is not None:
            return {"value": row["rate"], "ci": row["ci"]}
    elif kind == "bot":
        for row in summary["bots"]:
            if row["bot"] == arg:
                return {"value": row["rate"], "ci": row["ci"]}
        return {"value": None, "ci": None}
    elif kind in ("card", "noped", "drawn"):
        for row in summary["cards"]:
            if row["card"] == arg:
                if kind == "noped":  # plays of one game are not independent: no simple interval
                    return {"value": row["noped_share"], "ci": None}
                field = "plays" if kind == "card" else "drawn"
                return {"value": row[field] / n if n else None, "ci": row[f"{field}_per_game_ci"]}
        return {"value": 0.0 if n else None, "ci": None}
    elif kind == "out" and arg.isdigit():
        for row in summary["eliminations"]["order"]:
            if row["order"] == int(arg):
                return {"value": row["turn"]["mean"], "ci": row["turn"]["ci"]}
        return {"value": None, "ci": None}
    raise KeyError(name)


def sweep_curve(name: str, values: list, summaries: list, metrics=()) -> dict:
    """The points of a sweep, each with the ``metrics`` asked for, and which value makes
    seats fairest."""
    points = []
    for value, summary in zip(values, summaries):
        points.append({"value": value, "turns": summary["turns"]["mean"],
                       "turns_ci": summary["turns"]["ci"],
                       "first_player": summary["first_player"]["rate"],
                       "first_player_ci": summary["first_player"]["ci"],
                       "seat_spread": seat_spread(summary),
                       "fairness_p_value": summary["fairness"]["p_value"],
                       "fairness_statistic": summary["fairness"]["statistic"],
                       "no_winner": summary["no_winner"]["rate"],
                       "seats": [[s["rate"], s["ci"]] for s in summary["seats"]],
                       "metrics": {m: metric(summary, m) for m in metrics},
                       "summary": summary})
    scored = [p for p in points if p["fairness_statistic"] is not None]
    fairest = min(scored, key=lambda p: p["fairness_statistic"])["value"] if scored else None
    return {"parameter": name, "points": points, "fairest": fairest, "metrics": list(metrics)}
