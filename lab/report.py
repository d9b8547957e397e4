"""The lab's results as plain text for people (JSON is the summaries as they are)."""

from __future__ import annotations

from ..interpreter.engine.endings import is_limit, limit_name
from .comparison import card_lines
from .summary import SIGNIFICANT


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci(ci, pct: bool = True) -> str:
    if not ci:
        return ""
    lo, hi = ci
    return f"({100 * lo:.1f}-{100 * hi:.1f}%)" if pct else f"({lo:.1f}-{hi:.1f})"


def _p(p) -> str:
    if p is None:
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _games(count: int) -> str:
    return f"{count:,} game{'s' if count != 1 else ''}"


def run_line(meta: dict, each: str = "under each of {} rulesets") -> str:
    """How the run went: the games played in this run (every ruleset's, or every value's
    of a sweep: ``each`` says how they split), where, how fast, and what was read back."""
    rate = meta.get("games_per_second")
    speed = "" if not rate else f" ({rate:,.0f} games/s)" if rate >= 10 else f" ({rate:.2g} games/s)"
    where = f"on the cluster at {meta['scheduler']}" if meta.get("scheduler") else \
        f"on {meta['workers']} worker{'s' if meta['workers'] != 1 else ''}"
    arms = len(meta.get("rulesets") or ()) or 1
    played = _games(meta["played"] * arms)
    if arms > 1:
        played += f" ({meta['played']:,} {each.format(arms)})"
    resumed = f", {_games(meta['resumed'] * arms)} read back from {meta['out']}" if meta.get("resumed") else ""
    return f"played {played} {where} in {meta['seconds']:.1f} s{speed}{resumed}"


def seeds(meta: dict, games: int) -> str:
    """The seeds a run's games were dealt with, in words ("5-7, each dealt from ...")."""
    first = meta["seed"]
    if meta.get("deal_per_rotation"):
        last = first + max(games - 1, 0) // meta["players"]
        return f"{first}-{last}, each dealt from every turn of the line-up"
    return f"{first}-{first + max(games - 1, 0)}"


def simulate_text(summary: dict, meta: dict) -> str:
    lines = [f"{summary['games']} games of {summary['label']}, {summary['players']} players, "
             f"bots {', '.join(meta['bots'])} ({'seats rotate' if meta['rotate'] else 'fixed seats'}), "
             f"seeds {seeds(meta, summary['games'])}",
             run_line(meta), ""]
    if not summary["games"]:
        return "\n".join(lines)
    lines += sections(summary)
    return "\n".join(lines).rstrip() + "\n"


def sections(summary: dict) -> list:
    """The body of one ruleset's report, as lines: who wins, skill, length, cards."""
    return _wins(summary) + [""] + _skill(summary) + _length(summary) + [""] + _cards(summary)


def _wins(summary: dict) -> list:
    out = ["Who wins (95% CI)"]
    for seat in summary["seats"]:
        out.append(f"  seat {seat['seat']}  {_pct(seat['rate']):>6} {_ci(seat['ci'])}")
    for team in summary.get("teams", []):
        out.append(f"  team {team['team']}  {_pct(team['rate']):>6} {_ci(team['ci'])}")
    fair = summary["fairness"]
    out.append(f"  chance rate {_pct(summary['chance_rate'])}")
    if fair["p_value"] is None:
        out.append("  seat fairness: no wins to test")
    else:
        verdict = "seats differ" if fair["p_value"] < SIGNIFICANT else "no evidence that seats differ"
        caution = "" if fair["reliable"] else " (few games: read with care)"
        out.append(f"  seat fairness: chi-square {fair['statistic']:.1f} ({fair['df']} df), "
                   f"{_p(fair['p_value'])}: {verdict}{caution}")
    for score in summary.get("scores", []):
        if score["mean"] is not None:
            out.append(f"  seat {score['seat']}  mean score {score['mean']:.2f} {_ci(score['ci'], False)}")
    first = summary["first_player"]
    if first["n"]:
        out.append(f"  first player: {_pct(first['rate'])} {_ci(first['ci'])} against {_pct(first['chance'])}, "
                   f"{_p(first['p_value'])}")
    limits = summary["limits"]
    which = "; ".join(f"{count} at {limit_name(reason)}" for reason, count in limits.get("ends", {}).items()
                      if is_limit(reason) and count)
    out.append(f"  games stopped at a limit: {limits['count']} ({_pct(limits['rate'])}, 95% CI "
               f"{_ci(limits['ci'])[1:-1]})" + (f": {which}" if which else "")
               + (f"; no winner in {summary['no_winner']['count']}" if summary['no_winner']['count'] else ""))
    return out


def _skill(summary: dict) -> list:
    bots = summary["bots"]
    if len(bots) < 2:
        return []
    out = ["Skill (each bot's win rate against the chance rate)"]
    width = max(10, *(len(bot["bot"]) for bot in bots))  # bot specs may be long: keep a column
    for bot in bots:
        verdict = ("wins more than chance" if bot["rate"] > bot["chance"] else "wins less than chance") \
            if bot["p_value"] < SIGNIFICANT else "no better than chance"
        out.append(f"  {bot['bot']:<{width}} {_pct(bot['rate']):>6} {_ci(bot['ci'])} of {bot['seat_games']} "
                   f"seat-games, chance {_pct(bot['chance'])}, {_p(bot['p_value'])}: {verdict}")
    return out + [""]


def _length(summary: dict) -> list:
    out = ["Game length"]
    for name in ("turns", "decisions"):
        m = summary[name]
        q = m["quantiles"]
        out.append(f"  {name:<9} mean {m['mean']:.1f} {_ci(m['ci'], pct=False)}, median {q.get('50%')}, "
                   f"5%-95% {q.get('5%')}-{q.get('95%')}, range {m.get('min')}-{m.get('max')}")
    out.append("  " + sparkline(summary["turns"]["histogram"]) + "  turns, "
               f"{summary['turns'].get('min')} to {summary['turns'].get('max')}")
    order = summary["eliminations"]["order"]
    if order:
        out.append("Eliminations (mean turn, 95% CI)")
        for item in order:
            turn = item["turn"]
            out.append(f"  out #{item['order']}: turn {turn['mean']:.1f} {_ci(turn['ci'], pct=False)} "
                       f"in {item['games']} games")
        out.append("  out by seat: " + ", ".join(f"seat {s['seat']} {_pct(s['rate'])}"
                                                 for s in summary["eliminations"]["by_seat"]))
    return out


def sparkline(histogram: list, width: int = 40) -> str:
    """A histogram as a line of block characters (bins of equal width)."""
    if not histogram:
        return ""
    lo, hi = histogram[0][0], histogram[-1][0]
    bins = [0] * min(width, hi - lo + 1)
    for value, count in histogram:
        bins[(value - lo) * len(bins) // (hi - lo + 1)] += count
    top = max(bins)
    blocks = " ▁▂▃▄▅▆▇█"
    return "".join(blocks[round(8 * b / top)] if b else " " for b in bins)


#: a figure the lab does not count (lab.md says which), as the tables show it
NOT_COUNTED = "—"


def noped_cell(card: dict) -> str:
    """A card's share of plays Noped for a table: "—" where Nopes of it are not counted
    (a card only played in answer), blank where it was never played."""
    if not card.get("noped_counted", True):
        return NOT_COUNTED
    return "" if card["noped_share"] is None else _pct(card["noped_share"])


def _cards(summary: dict) -> list:
    rows = [c for c in summary["cards"] if c["plays"] or c["in_combos"] or c["drawn"] or c["never_played"]]
    if not rows:
        return []
    out = ["Cards, per game (win rate of the seats that played it, against those that held it and did not)",
           f"  {'card':<22}{'plays':>7}{'combos':>8}{'noped':>7}{'drawn':>7}{'at end':>8}"
           f"{'played':>9}{'held':>8}  difference"]
    for c in rows:
        n = summary["games"]
        played, held, diff = c["win_when_played"], c["win_when_held_not_played"], c["played_minus_held"]
        gap = "" if diff["difference"] is None else \
            f"{100 * diff['difference']:+.1f} ({100 * diff['ci'][0]:+.1f} to {100 * diff['ci'][1]:+.1f}), " \
            f"{_p(diff['p_value'])}"
        noped = noped_cell(c)
        out.append(f"  {c['card']:<22}{c['plays'] / n:>7.2f}{c['in_combos'] / n:>8.2f}{noped:>7}"
                   f"{c['drawn'] / n:>7.2f}{c['held_at_end'] / n:>8.2f}{_pct(played['rate']):>9}"
                   f"{_pct(held['rate']):>8}  {gap}")
    never = [c["card"] for c in summary["cards"] if c["never_played"]]
    if never:
        out.append(f"  never played in {summary['games']} games: {', '.join(never)}")
    for combo in summary["combos"]:
        noped = "" if combo["noped_share"] is None else f", {_pct(combo['noped_share'])} Noped"
        out.append(f"  combo {combo['combo']}: {combo['per_game']:.2f} a game{noped}")
    if summary["blind_plays"]:
        out.append(f"  cards played blind: {summary['blind_plays']}")
    return out


def compare_text(summaries: list, comparisons: list, meta: dict) -> str:
    lines = [f"{meta['games']} games of each ruleset, the same seeds ({seeds(meta, meta['games'])}) "
             f"and bots by seat ({', '.join(meta['bots'])}, "
             f"{'seats rotate' if meta['rotate'] else 'fixed seats'}), {meta['players']} players",
             run_line(meta), ""]
    for summary in summaries:
        first = summary["first_player"]
        lines.append(f"{summary['label']}: {summary['turns']['mean']:.1f} turns "
                     f"{_ci(summary['turns']['ci'], pct=False)}, first player wins {_pct(first['rate'])}, "
                     f"seats " + " / ".join(_pct(s["rate"]) for s in summary["seats"])
                     + ("; skill: " + ", ".join(f"{b['bot']} {_pct(b['rate'])}" for b in summary["bots"])
                        if len(summary["bots"]) > 1 else "")
                     + ("; mean scores " + " / ".join(f"{s['mean']:.2f} {_ci(s['ci'], False)}"
                                                      for s in summary["scores"] if s["mean"] is not None)
                        if summary.get("scores") else ""))
    for comparison in comparisons:
        lines += ["", f"{comparison['other']} against {comparison['baseline']}:"]
        lines += [f"  - {m['sentence']}" for m in comparison["metrics"] if "card" not in m]
        lines += card_lines(comparison)
        lines += ["", wrap(comparison["verdict"])]
    lines += ["", "Differences are paired over the same games; p-values are per metric, not "
              "corrected for the number of metrics: among twenty metrics that did not change, one "
              "may show p < 0.05 by chance."]
    return "\n".join(lines) + "\n"


def wrap(text: str, width: int = 100) -> str:
    """A long sentence broken at spaces into lines of at most ``width`` characters."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))


def sweep_text(curve: dict, meta: dict) -> str:
    name = curve["parameter"]
    lines = [f"{meta['games']} games at each {name} (the same seeds, {meta['players']} players, bots "
             f"{', '.join(meta['bots'])}, {'seats rotate' if meta['rotate'] else 'fixed seats'}"
             f"{', each deal from every turn of the line-up' if meta.get('deal_per_rotation') else ''})",
             run_line(meta, "at each of {} values"), "",
             f"  {name:<14}{'turns (95% CI)':>22}{'first player':>24}{'seat spread':>13}"
             f"{'fairness p':>12}{'no winner':>11}"]
    for point in curve["points"]:
        turns = f"{point['turns']:.1f} {_ci(point['turns_ci'], pct=False)}" if point["turns"] is not None else "n/a"
        first = f"{_pct(point['first_player'])} {_ci(point['first_player_ci'])}"
        spread = "n/a" if point["seat_spread"] is None else f"{100 * point['seat_spread']:.1f} pts"
        fair = "n/a" if point["fairness_p_value"] is None else f"{point['fairness_p_value']:.3f}"
        lines.append(f"  {str(point['value']):<14}{turns:>22}{first:>24}{spread:>13}{fair:>12}"
                     f"{_pct(point['no_winner']):>11}")
    for name_ in curve.get("metrics", []):
        lines += ["", f"  {name}  {name_} (95% CI)"]
        for point in curve["points"]:
            found = point["metrics"][name_]
            shown = "n/a" if found["value"] is None else f"{found['value']:.3f}"
            if found["ci"]:
                shown += f" ({found['ci'][0]:.3f}-{found['ci'][1]:.3f})"
            lines.append(f"  {str(point['value']):<14}{shown}")
    if curve["fairest"] is not None:
        lines += ["", f"Seats are fairest at {name}={curve['fairest']} (smallest chi-square of wins by seat). "
                  "Seat spread: the largest gap between a seat's win rate and the chance rate."]
    return "\n".join(lines) + "\n"
