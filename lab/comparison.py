"""What one ruleset changes against another over the same games (see stats.py).

:func:`compare` turns a :class:`~.tally.Paired` into differences, each with its
95% interval, p-value and a sentence: game length, decisions, each seat's and
the first player's win rate, games without a winner, each bot's share of wins,
and every figure the lab counts per card (plays, Nopes, combos, draws, copies
in hand at the end). :func:`verdict` says it all in one closing sentence.

A difference whose interval takes in zero is "no detectable change", never
"unchanged": with few games the interval is wide, and a real change smaller
than it would not show.
"""

from __future__ import annotations

from . import stats
from .summary import SIGNIFICANT
from .tally import PAIRED_CARD_FIGURES

#: how a card's figure reads after "'card' is ...", and in the short form of a verdict
CARD_WORDS = {"plays": ("played", "played"), "noped": ("Noped", "Noped"),
              "in_combos": ("spent in combos", "in combos"), "drawn": ("drawn", "drawn"),
              "held_at_end": ("in hand at the end", "in hand at the end")}


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _p(p: float | None) -> str:
    if p is None:
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def compare(paired, *, baseline: str, other: str, uncounted=()) -> dict:
    """Each metric's difference (other minus baseline) over the same games, with its
    interval, p-value and a sentence, and the verdict. ``uncounted``: cards whose Nopes
    the lab does not count (cards only ever played in answer), left out of the Nopes."""
    metrics = [m for m in (_ratio_metric("turns", "game length in turns", paired.turns),
                           _ratio_metric("decisions", "decisions per game", paired.decisions))
               if m is not None]
    for seat, pm in enumerate(paired.seat_wins):
        metrics.append(rate_change(f"seat {seat} win rate", f"seat {seat}'s win rate", pm))
    metrics.append(rate_change("first player win rate", "the first player's win rate", paired.first_wins))
    metrics.append(rate_change("no winner", "the share of games without a winner", paired.no_winner))
    if len(paired.bot_wins) > 1:  # skill: how much each kind of bot wins
        for name, pm in sorted(paired.bot_wins.items()):
            metrics.append(rate_change(f"games won by {name}", f"the share of games won by the {name} bots", pm))
    metrics += _card_metrics(paired, set(uncounted))
    found = {"baseline": baseline, "other": other, "games": paired.turns.n, "metrics": metrics}
    found["verdict"] = verdict(found)
    return found


#: up to how many cards a verdict names each with the figures that changed
CARDS_IN_FULL = 4


def _ratio_metric(name: str, words: str, pm) -> dict | None:
    """A mean's change as a ratio (turns, decisions): the sentence in percent."""
    result = stats.ratio(pm)
    if result["ratio"] is None:
        return None
    change, (lo, hi) = result["ratio"] - 1, [x - 1 for x in result["ratio_ci"]]
    moved = result["p_value"] < SIGNIFICANT
    digits = 0 if moved else 1  # a change found reads in whole percent, one not found closer
    detail = (f"{result['mean_a']:.1f} -> {result['mean_b']:.1f}; 95% CI {100 * lo:+.{digits}f}% to "
              f"{100 * hi:+.{digits}f}%, {_p(result['p_value'])}")
    if name == "turns" and moved:
        text = f"games are {abs(100 * change):.0f}% {'longer' if change > 0 else 'shorter'} in turns ({detail})"
    elif moved:
        text = f"{words} change by {100 * change:+.0f}% ({detail})"
    else:
        text = f"no detectable change in {words} ({100 * change:+.1f}%: {detail})"
    return {"metric": name, **result, "change": change, "change_ci": [lo, hi], "significant": moved,
            "sentence": text, "what": words, "short": f"{100 * change:+.0f}%"}


def rate_change(name: str, words: str, pm) -> dict:
    """A paired yes/no outcome's change (a win rate), in points."""
    result = stats.paired_rate(pm)
    if result["difference"] is None:
        return {"metric": name, **result, "significant": False, "sentence": f"{words}: too few games",
                "what": words, "short": ""}
    moved = result["p_value"] < SIGNIFICANT
    points = 100 * result["difference"]
    lo, hi = (100 * x for x in result["ci"])
    detail = (f"{_pct(result['rate_a'])} -> {_pct(result['rate_b'])}; 95% CI {lo:+.1f} to {hi:+.1f} "
              f"points, {_p(result['p_value'])}")
    if moved:
        text = f"{words} goes {'up' if points > 0 else 'down'} by {abs(points):.1f} points ({detail})"
    else:
        text = f"{words}: no detectable change ({detail})"
    return {"metric": name, **result, "significant": moved, "sentence": text, "what": words,
            "short": f"{points:+.1f} points"}


def _card_metrics(paired, uncounted: set) -> list:
    """Every card figure either ruleset saw at least once, card by card."""
    found = []
    cards = sorted({card_id for figure in PAIRED_CARD_FIGURES for card_id in paired.cards[figure]})
    for card_id in cards:
        for figure in PAIRED_CARD_FIGURES:
            pm = paired.cards[figure].get(card_id)
            if pm is None or (pm.sa == 0 and pm.sb == 0) or (figure == "noped" and card_id in uncounted):
                continue
            if pm.n >= 2:
                found.append(_card_metric(card_id, figure, pm, paired.cards["plays"].get(card_id)))
    return found


def _card_metric(card_id: str, figure: str, pm, plays) -> dict:
    """One figure of one card: its change per game; Nopes also as a share of the plays."""
    result = stats.paired(pm)
    moved = result["p_value"] is not None and result["p_value"] < SIGNIFICANT
    words, short = CARD_WORDS[figure]
    share = ""
    extra: dict = {}
    if figure == "noped" and plays is not None:  # and as a share of its plays, as simulate shows it
        extra = {"share_a": pm.sa / plays.sa if plays.sa else None,
                 "share_b": pm.sb / plays.sb if plays.sb else None}
        share = ", " + " -> ".join("never played" if x is None else _pct(x)
                                   for x in (extra["share_a"], extra["share_b"])) + " of its plays"
    fragment = (f"{words} {result['mean_a']:.2f} -> {result['mean_b']:.2f} times a game{share} "
                f"({result['difference']:+.2f}; 95% CI {result['ci'][0]:+.2f} to {result['ci'][1]:+.2f}, "
                f"{_p(result['p_value'])})")
    name = "plays" if figure == "plays" else figure.replace("_", " ")
    return {"metric": f"{name} of {card_id}", "card": card_id, "figure": figure, **result, **extra,
            "significant": moved, "sentence": f"'{card_id}' is {fragment}", "fragment": fragment,
            "what": f"'{card_id}' {short}", "short": f"{short} {result['difference']:+.2f} a game"}


def card_lines(comparison: dict, bullet: str = "  - ") -> list:
    """The cards' part of a comparison as text: a line per card with a change (a line
    per figure under its name when several changed), then one line naming the cards
    where nothing changed; each item starts with ``bullet``."""
    lines, quiet, changed = [], [], {}
    for m in comparison["metrics"]:
        if "card" in m:
            changed.setdefault(m["card"], []).extend([m] if m["significant"] else [])
    under = " " * (len(bullet) + 2)
    for card_id, moved in changed.items():
        if len(moved) == 1:
            lines.append(bullet + moved[0]["sentence"])
        elif moved:  # a line for each figure, under the card's name
            lines.append(f"{bullet}'{card_id}' is")
            lines += [under + m["fragment"] for m in moved]
        else:
            quiet.append(f"'{card_id}'")
    if quiet:
        lines.append(f"{bullet}no detectable change in any figure of {_join(quiet)} (played, Noped, spent "
                     "in combos, drawn, in hand at the end: see --format json)")
    return lines


def verdict(comparison: dict) -> str:
    """One plain sentence: what changed (with its size), what did not, at what confidence."""
    metrics = comparison["metrics"]
    moved = [m for m in metrics if m["significant"] and "card" not in m]
    still = _grouped([m for m in metrics if not m["significant"] and "card" not in m and m["short"]])
    by_card: dict = {}
    for m in metrics:
        if "card" in m and m["significant"]:
            by_card.setdefault(m["card"], []).append(CARD_WORDS[m["figure"]][1])
    cards_still = any("card" in m and not m["significant"] for m in metrics)
    head = (f"In short, over {comparison['games']:,} games of each, at 95% confidence (p < 0.05, "
            f"each figure on its own): ")
    if not moved and not by_card:
        return head + (f"no detectable change against {comparison['baseline']} in any figure; a change "
                       "smaller than the intervals above would not show in this many games.")
    if len(by_card) <= CARDS_IN_FULL:
        cards = [f"'{card_id}' ({', '.join(shorts)})" for card_id, shorts in by_card.items()]
    else:  # many: their names, and the lines above say which figures
        cards = [f"how {_join([repr(card_id) for card_id in by_card])} are used (which figures: the lines above)"]
    changes = [f"{m['what']} ({m['short']})" for m in moved] + cards
    text = head + f"{comparison['other']} changes {_join(changes)}"
    unchanged = still + (["any other card figure" if by_card else "any card figure"] if cards_still else [])
    if unchanged:
        text += f"; no detectable change in {_join(unchanged, 'or')}"
    return text + "."


def _grouped(metrics: list) -> list:
    """The names of metrics, several seats' win rates said once ("the win rates of seats
    1, 2 and 3")."""
    seats = [m["metric"].split()[1] for m in metrics if m["metric"].endswith(" win rate")
             and m["metric"].startswith("seat ")]
    names = [m["what"] for m in metrics if not (len(seats) > 1 and m["metric"].startswith("seat "))]
    if len(seats) > 1:
        names.insert(0, f"the win rates of seats {_join(seats)}")
    return names


def _join(items: list, last: str = "and") -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"
