"""What a designer asks of a game, as targets on figures the lab measures (``kittens tune``).

A target is a figure and a goal, ``--target "turns 35..45"``:

* a range ``LO..HI``, a bound ``>= X`` or ``<= X``: met when the figure is inside;
* ``~ X``: as close to X as possible; ``min`` or ``max``: as small or large as possible;
* a bare name: the figure's own goal where it has one (``fairness`` and
  ``first_edge``: as close to zero as possible);

and an optional ``weight=W`` (default 1). The figures, each with a 95% interval:

* ``turns``, ``decisions``: the mean game length;
* ``fairness``: the largest gap between a seat's win rate and the equal share, in points;
* ``first_edge``: the first player's win rate minus the equal share, in points;
* ``skill``: the best bot's win rate minus the worst's, in points (``--bots`` mixing bots);
  with ``--skill SPEC``, that stronger bot's edge over the equal share in a series of its
  own (one seat of it against the run's bots, seats rotating), in points;
* ``limits``, ``no_winner``: the share of games stopped at a limit, or won by nobody, in percent;
* ``out:K``: the mean turn the K-th player goes out;
* ``card:ID``, ``drawn:ID``: a card's plays or draws per game.

A trial's *loss* adds up each target's miss times its weight, the miss measured in
the target's tolerance: a range's half-width, a tenth of a bound's or a point's value
(at least 1), one unit for ``min`` and ``max``. Zero means every range and bound is met.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..interpreter.rules.load import UsageError
from . import stats

FIGURES = {"turns": "mean turns a game", "decisions": "mean decisions a game",
           "fairness": "largest seat gap from the equal share (points)",
           "first_edge": "first player's edge over the equal share (points)",
           "skill": "best bot's win rate minus the worst's, or the --skill bot's edge (points)",
           "limits": "games stopped at a limit (%)", "no_winner": "games without a winner (%)",
           "out:K": "mean turn the K-th player goes out", "card:ID": "plays of a card a game",
           "drawn:ID": "draws of a card a game"}
#: a bare name's goal
DEFAULT_GOALS = {"fairness": ("close", 0.0), "first_edge": ("close", 0.0)}
FIGURES_HELP = ", ".join(FIGURES)


@dataclass(frozen=True)
class Target:
    """One figure and its goal: kind in range, at_least, at_most, close, min, max."""

    figure: str
    kind: str
    low: float | None = None
    high: float | None = None
    weight: float = 1.0
    text: str = ""

    @property
    def bounded(self) -> bool:
        """Whether the target can be met (a range or a bound) rather than only approached."""
        return self.kind in ("range", "at_least", "at_most")

    def tolerance(self) -> float:
        if self.kind == "range":
            return max((self.high - self.low) / 2, 1e-9) if self.high > self.low else 1.0
        if self.kind in ("min", "max"):
            return 1.0
        point = self.low if self.low is not None else self.high
        return max(abs(point) / 10, 1.0)

    def miss(self, value: float) -> float:
        """How far ``value`` is from the goal, in the figure's units (0: met)."""
        if self.kind == "range":
            return max(0.0, self.low - value, value - self.high)
        if self.kind == "at_least":
            return max(0.0, self.low - value)
        if self.kind == "at_most":
            return max(0.0, value - self.high)
        if self.kind == "close":
            return abs(value - self.low)
        return value if self.kind == "min" else -value

    def loss(self, value: float) -> float:
        return self.weight * self.miss(value) / self.tolerance()

    def met(self, value: float, ci) -> str:
        """"clearly" (the whole interval meets it), "yes", "no", or "n/a" (no bound to meet)."""
        if not self.bounded:
            return "n/a"
        if self.miss(value) > 0:
            return "no"
        if ci and all(self.miss(x) == 0 for x in ci):
            return "clearly"
        return "yes"


_TARGET = re.compile(r"^\s*([A-Za-z_]+(?::[A-Za-z0-9_]+)?)\s*(.*?)\s*$")
_NUMBER = r"-?\d+(?:\.\d+)?"


def parse_target(text: str) -> Target:
    """``"turns 35..45"``, ``"skill >= 10 weight=2"``, ``"fairness"``: a Target (UsageError
    saying how to write one otherwise)."""
    how = ("write FIGURE GOAL [weight=W], the goal LO..HI, >= X, <= X, ~ X, min or max "
           f"(e.g. \"turns 35..45\"); the figures: {FIGURES_HELP}")
    match = _TARGET.match(text)
    if not match:
        raise UsageError(f"--target '{text}': {how}")
    figure, rest = match.groups()
    weight = 1.0
    found = re.search(rf"\bweight\s*=\s*({_NUMBER})\s*$", rest)
    if found:
        weight, rest = float(found.group(1)), rest[:found.start()].strip()
        if weight <= 0:
            raise UsageError(f"--target '{text}': a weight is above zero")
    kind, _, arg = figure.partition(":")
    if figure not in FIGURES and not (f"{kind}:{'K' if kind == 'out' else 'ID'}" in FIGURES and arg):
        raise UsageError(f"--target '{text}': unknown figure '{figure}'; the figures: {FIGURES_HELP}")
    if kind == "out" and not arg.isdigit():
        raise UsageError(f"--target '{text}': out:K takes a whole number (out:1, the first player out)")
    span = re.fullmatch(rf"({_NUMBER})\s*\.\.\s*({_NUMBER})", rest)
    bound = re.fullmatch(rf"(>=|<=|~)\s*({_NUMBER})", rest)
    if span:
        low, high = float(span.group(1)), float(span.group(2))
        if high < low:
            raise UsageError(f"--target '{text}': a range goes up (LO..HI with LO <= HI)")
        return Target(figure, "range", low, high, weight, text.strip())
    if bound:
        value = float(bound.group(2))
        kind = {">=": "at_least", "<=": "at_most", "~": "close"}[bound.group(1)]
        return Target(figure, kind, value if kind != "at_most" else None,
                      value if kind == "at_most" else None, weight, text.strip())
    if rest in ("min", "max"):
        return Target(figure, rest, weight=weight, text=text.strip())
    if not rest and figure in DEFAULT_GOALS:
        goal, value = DEFAULT_GOALS[figure]
        return Target(figure, goal, value, None, weight, text.strip())
    raise UsageError(f"--target '{text}': {how}")


def _points(ci, shift: float = 0.0):
    return None if not ci else [100 * (ci[0] - shift), 100 * (ci[1] - shift)]


def figure(summary: dict, name: str) -> dict:
    """One figure of a lab summary, in the target's units: {"value", "ci"} (value None
    when the games do not tell, e.g. skill with one kind of bot)."""
    from .summary import metric

    kind = name.partition(":")[0]
    if name in ("turns", "decisions") or kind in ("out", "card", "drawn"):
        return metric(summary, name)
    if name in ("limits", "no_winner"):
        found = metric(summary, name)
        return {"value": None if found["value"] is None else 100 * found["value"], "ci": _points(found["ci"])}
    if name == "first_edge":
        first = summary["first_player"]
        share = first.get("chance")
        if first["rate"] is None or share is None:
            return {"value": None, "ci": None}
        return {"value": 100 * (first["rate"] - share), "ci": _points(first["ci"], share)}
    if name == "fairness":
        return _fairness(summary)
    if name == "skill" and "skill_series" in summary:  # --skill: the stronger bot's edge
        series = summary["skill_series"]
        row = next((b for b in series["bots"] if b["bot"] == series["strong"]), None)
        if row is None or row["rate"] is None:
            return {"value": None, "ci": None}
        share = 1 / series["players"]
        return {"value": 100 * (row["rate"] - share), "ci": _points(row["ci"], share)}
    if name == "skill":
        bots = [b for b in summary["bots"] if b["rate"] is not None]
        if len(bots) < 2:
            return {"value": None, "ci": None}
        best, worst = max(bots, key=lambda b: b["rate"]), min(bots, key=lambda b: b["rate"])
        gap = stats.two_rates(best["count"], best["n"], worst["count"], worst["n"])
        return {"value": 100 * gap["difference"], "ci": _points(gap["ci"])}
    raise KeyError(name)


def _fairness(summary: dict) -> dict:
    """The seat furthest from the equal share: its gap in points, and the interval of
    that gap (from its win rate's Wilson interval)."""
    chance = summary["chance_rate"]
    seats = [s for s in summary["seats"] if s["rate"] is not None]
    if chance is None or not seats:
        return {"value": None, "ci": None}
    seat = max(seats, key=lambda s: abs(s["rate"] - chance))
    lo, hi = seat["ci"][0] - chance, seat["ci"][1] - chance
    if lo > 0:
        span = [lo, hi]
    elif hi < 0:
        span = [-hi, -lo]
    else:
        span = [0.0, max(-lo, hi)]
    return {"value": 100 * abs(seat["rate"] - chance), "ci": [100 * span[0], 100 * span[1]]}


def assess(targets: list, summary: dict) -> dict:
    """Every target's figure, interval, miss and whether it is met, and the total loss."""
    rows, loss = [], 0.0
    for target in targets:
        found = figure(summary, target.figure)
        value = found["value"]
        if value is None:
            rows.append({"target": target.text, "figure": target.figure, "value": None, "ci": None,
                         "miss": None, "met": "no", "loss": None})
            loss = float("inf")
            continue
        part = target.loss(value)
        loss += part
        rows.append({"target": target.text, "figure": target.figure, "value": value, "ci": found["ci"],
                     "miss": target.miss(value), "met": target.met(value, found["ci"]), "loss": part})
    return {"loss": loss, "targets": rows}


def optimistic_loss(targets: list, summary: dict) -> float:
    """The loss at the most favourable end of every figure's interval: a trial is
    clearly worse than another only if even this is worse (what the pruner is given)."""
    total = 0.0
    for target in targets:
        found = figure(summary, target.figure)
        if found["value"] is None:
            return float("inf")
        points = [found["value"]]
        if found["ci"]:  # the point of the interval nearest the goal
            lo, hi = found["ci"]
            goal = {"range": ((target.low or 0.0) + (target.high or 0.0)) / 2, "at_least": hi, "at_most": lo,
                    "close": target.low, "min": lo, "max": hi}[target.kind]
            points.append(min(max(goal, lo), hi))
        total += min(target.loss(x) for x in points)
    return total
