"""Does a ruleset reward skill? What a stronger player gains over weaker ones.

``kittens simulate --skill SPEC`` and ``kittens compare --skill SPEC`` play a
second series besides the run's own: one seat of the stronger player (SPEC, a
bot spec such as ``ismcts:iterations=20:search=single``) against the run's
bots in every other seat, the line-up turned one seat each game so the strong
player sits everywhere alike. Under each ruleset, its win rate with a 95%
Wilson interval against the share every seat would win if all played alike
(exact binomial p-value), and the *edge*: that rate minus the equal share. In
a comparison, the change of its win rate between two rulesets over the same
deals, with its paired interval and McNemar's exact p-value: a house rule that
raises it makes the game more about skill, one that lowers it more about luck.
"""

from __future__ import annotations

from . import stats
from .comparison import rate_change
from .summary import SIGNIFICANT


def measure(strong: str, weak: list, summaries: list, paired: list, meta: dict) -> dict:
    """The skill figures of a run of the strong player against ``weak`` seats."""
    rows = []
    for summary in summaries:
        found = next((row for row in summary["bots"] if row["bot"] == strong), None)
        games = summary["games"]
        chance = 1 / summary["players"]
        wins = found["count"] if found else 0
        rate = stats.rate(wins, games, chance)
        rows.append({"ruleset": summary["label"], "games": games, **rate,
                     "edge": rate["rate"] - chance if rate["rate"] is not None else None,
                     "edge_ci": [low - chance for low in rate["ci"]] if rate["ci"] else None})
    changes = []
    for row, pair in zip(rows[1:], paired):
        moments = pair.bot_wins.get(strong)
        if moments is None:
            continue
        change = rate_change("strong player's win rate", f"the {strong} player's win rate", moments)
        changes.append({"baseline": rows[0]["ruleset"], "other": row["ruleset"], **change})
    return {"strong": strong, "weak": list(weak), "players": summaries[0]["players"] if summaries else None,
            "seconds": meta.get("seconds"), "rulesets": rows, "changes": changes}


def text(found: dict) -> str:
    """The skill section of a report."""
    lines = [f"Skill: one {found['strong']} player against {', '.join(found['weak'])} "
             f"(seats rotate; {found['rulesets'][0]['games'] if found['rulesets'] else 0} games a ruleset, "
             f"played in {found['seconds'] or 0:.0f} s)"]
    for row in found["rulesets"]:
        if row["rate"] is None:
            lines.append(f"  {row['ruleset']}: no games")
            continue
        verdict = "rewards skill" if row["p_value"] < SIGNIFICANT and row["edge"] > 0 else \
            "the stronger player does worse" if row["p_value"] < SIGNIFICANT else "no edge shown"
        lines.append(f"  {row['ruleset']}: wins {100 * row['rate']:.1f}% (95% CI {100 * row['ci'][0]:.1f}-"
                     f"{100 * row['ci'][1]:.1f}%) against an equal share of {100 * row['chance']:.1f}%: "
                     f"edge {100 * row['edge']:+.1f} points, p = {row['p_value']:.3g} ({verdict})")
    for change in found["changes"]:
        lines.append(f"  {change['other']} against {change['baseline']}: {change['sentence']}")
    return "\n".join(lines) + "\n"
