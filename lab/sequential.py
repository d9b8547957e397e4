"""Playing in batches until every difference is settled (``compare --until-settled``).

A fixed-sample 95% interval keeps its 5% error rate only if it is looked at once.
Looking after every batch and stopping as soon as it excludes zero makes a false
"change" far more likely (about one run in four with forty looks). The intervals here
are *confidence sequences* instead: 95% intervals that hold at every look at once, so
the run may stop whenever they say so and still be wrong at most 5% of the time, per
figure. They are the asymptotic confidence sequences of Waudby-Smith, Arbour, Sinha,
Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence
sequences" (Annals of Statistics, 2024), with the two-sided normal-mixture boundary of
Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic
confidence sequences" (Annals of Statistics, 2021): after n games with a per-game
standard deviation s, the half-width is

    s * sqrt( (n r + 1) / (n^2 r) * log((n r + 1) / alpha^2) ),

where r (rho squared) makes the interval narrowest near a chosen number of games; it is
fixed before the first game (from the cap), never from the data.

A figure is *settled* when its interval excludes zero (a change, and its direction,
are known) or is narrower on each side than the stated margin (any change is smaller
than the margin). Only these figures are settled: game length in turns and decisions
(as a ratio of means, in percent), each seat's and the first player's win rate, the
share of games without a winner and each bot's share of wins (in points), or those of
them ``--settle`` names. The cards' figures are reported as always, with their
fixed-sample intervals.

Everything works on the lab's sums (:class:`~.tally.PairedMoments`), so a test can feed
it synthetic numbers as well as games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ALPHA = 0.05
#: the groups of figures ``--settle`` names
GROUPS = ("turns", "decisions", "seats", "first_player", "no_winner", "bots")
METHOD = ("asymptotic confidence sequence (Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas, "
          "Annals of Statistics 2024; normal-mixture boundary of Howard et al., 2021)")


@dataclass(frozen=True)
class Plan:
    """How a run plays until settled: games per batch, the cap, the margin (points of a
    rate, percent of a length; None: only an interval that excludes zero settles)."""

    batch: int = 200
    cap: int = 20000
    margin: float | None = None
    alpha: float = ALPHA
    groups: tuple = GROUPS  # which figures must settle (see figures())

    @property
    def rho2(self) -> float:
        """The boundary's tuning, set so the interval is narrowest near a quarter of the cap
        (the paper's rule for a chosen sample size)."""
        return tuning(max(self.batch, self.cap // 4), self.alpha)


def tuning(games: int, alpha: float = ALPHA) -> float:
    """rho squared giving the narrowest interval at ``games`` games."""
    log_term = -2 * math.log(alpha)
    return (log_term + math.log(log_term + 1)) / games


def half_width(n: int, sd: float, rho2: float, alpha: float = ALPHA) -> float:
    """The confidence sequence's half-width after ``n`` observations of standard deviation ``sd``."""
    if n < 2:
        return math.inf
    grown = n * rho2 + 1
    return sd * math.sqrt(grown / (n * n * rho2) * math.log(grown / (alpha * alpha)))


def _difference(pm) -> tuple[float, float] | None:
    """The mean per-game difference (b - a) and its per-game standard deviation."""
    n = pm.n
    if n < 2:
        return None
    diff = (pm.sb - pm.sa) / n
    sum_d2 = pm.sbb - 2 * pm.sab + pm.saa
    return diff, math.sqrt(max(sum_d2 - n * diff * diff, 0.0) / (n - 1))


def _ratio(pm) -> tuple[float, float] | None:
    """The ratio of means minus one (b / a - 1) and the per-game standard deviation of its
    linearization (the delta method, as stats.ratio)."""
    n = pm.n
    if n < 2 or pm.sa == 0:
        return None
    ma, mb = pm.sa / n, pm.sb / n
    r = mb / ma
    var_a = max(pm.saa - n * ma * ma, 0.0) / (n - 1)
    var_b = max(pm.sbb - n * mb * mb, 0.0) / (n - 1)
    cov = (pm.sab - n * ma * mb) / (n - 1)
    return r - 1, math.sqrt(max(var_b + r * r * var_a - 2 * r * cov, 0.0)) / ma


def figures(paired, groups=GROUPS, prefix: str = "") -> list:
    """The figures a comparison settles, of the ``groups`` asked for: (name, "ratio" or
    "rate", PairedMoments)."""
    found = []
    if "turns" in groups:
        found.append(("turns", "ratio", paired.turns))
    if "decisions" in groups:
        found.append(("decisions", "ratio", paired.decisions))
    if "seats" in groups:
        found += [(f"seat {seat} win rate", "rate", pm) for seat, pm in enumerate(paired.seat_wins)]
    if "first_player" in groups:
        found.append(("first player win rate", "rate", paired.first_wins))
    if "no_winner" in groups:
        found.append(("no winner", "rate", paired.no_winner))
    if "bots" in groups and len(paired.bot_wins) > 1:
        found += [(f"games won by {name}", "rate", pm) for name, pm in sorted(paired.bot_wins.items())]
    return [(prefix + name, kind, pm) for name, kind, pm in found]


def settle(named: list, plan: Plan) -> list:
    """Each figure's estimate, confidence-sequence interval and whether it is settled."""
    rows = []
    for name, kind, pm in named:
        found = _ratio(pm) if kind == "ratio" else _difference(pm)
        if found is None:
            rows.append({"metric": name, "kind": kind, "estimate": None, "ci": None, "settled": False,
                         "why": "too few games"})
            continue
        estimate, sd = found
        half = half_width(pm.n, sd, plan.rho2, plan.alpha)
        if kind == "rate" and pm.sa == 0 and pm.sb == 0:
            # never seen under either ruleset: no spread to measure, so the rule of three
            # (a rate seen 0 times in n is below 3/n at 95%) bounds the change instead
            half = 3 / pm.n
        lo, hi = estimate - half, estimate + half
        margin = None if plan.margin is None else plan.margin / 100  # points and percent alike
        if lo > 0 or hi < 0:
            settled, why = True, "its interval excludes zero"
        elif margin is not None and half < margin:
            settled, why = True, f"any change is under the margin ({plan.margin:g})"
        else:
            settled, why = False, "not settled"
        rows.append({"metric": name, "kind": kind, "estimate": estimate, "ci": [lo, hi],
                     "settled": settled, "why": why})
    return rows


def batches(plan: Plan, players: int):
    """(start, stop) of each batch up to the cap; every batch but the last a whole number
    of rotations of the table, so a batch's game i is game start + i of a fixed run."""
    size = max(players, plan.batch - plan.batch % players)
    start = 0
    while start < plan.cap:
        yield start, min(plan.cap, start + size)
        start += size


def run(play, named_of, plan: Plan, players: int, on_batch=None, look=None) -> dict:
    """Play batches until every figure is settled, the cap is reached or ``play`` says it
    was interrupted. ``play(start, stop)`` plays those games and returns True when it was
    interrupted; ``named_of()`` gives the figures so far (see :func:`figures`), or
    ``look()`` the rows themselves (see :func:`precise`). The outcome: games, why it
    stopped, and the last look's rows."""
    rows: list = []
    games = looks = 0
    stopped = "cap"
    for start, stop in batches(plan, players):
        interrupted = play(start, stop)
        games, looks = stop, looks + 1
        rows = look() if look is not None else settle(named_of(), plan)
        if on_batch is not None:
            on_batch(games, rows)
        if interrupted:
            stopped = "interrupted"
            break
        if rows and all(row["settled"] for row in rows):
            stopped = "settled"
            break
    return {"method": METHOD, "alpha": plan.alpha, "batch": plan.batch, "cap": plan.cap,
            "margin": plan.margin, "looks": looks, "games": games, "stopped": stopped, "figures": rows}


# -- simulate --precision: one ruleset's figures to a stated precision ---------------------
#: what --precision names: turns and decisions in their own units, rates in points
PRECISION_FIGURES = ("turns", "decisions", "first_player", "seats", "no_winner", "limits")


def parse_precision(texts) -> dict:
    """``turns=0.5``, ``seats=2``: figure -> the half-width wanted (ValueError saying how)."""
    wanted = {}
    for text in texts:
        name, _, value = text.partition("=")
        name = name.strip()
        try:
            half = float(value)
        except ValueError:
            half = -1.0
        if name not in PRECISION_FIGURES or half <= 0:
            raise ValueError(f"--precision '{text}': write FIGURE=HALF_WIDTH with a figure of "
                             f"{', '.join(PRECISION_FIGURES)} (e.g. turns=0.5, seats=2 in points)")
        wanted[name] = half
    return wanted


def _rate_row(name: str, k: int, n: int, goal: float, plan: Plan) -> dict:
    p = k / n if n else 0.0
    half = (3 / n if k in (0, n) else half_width(n, math.sqrt(p * (1 - p)), plan.rho2, plan.alpha)) if n > 1 \
        else math.inf
    return {"metric": name, "kind": "rate", "estimate": p, "ci": [p - half, p + half],
            "goal": goal, "settled": 100 * half <= goal, "why": f"within +/-{goal:g} points"}


def precise(tally, wanted: dict, plan: Plan) -> list:
    """Each figure asked for, its confidence sequence, and whether it is as narrow as wanted."""
    rows = []
    for name, goal in wanted.items():
        if name in ("turns", "decisions"):
            m = getattr(tally, name)
            mean = m.s / m.n if m.n else 0.0
            sd = math.sqrt(max(m.ss - m.n * mean * mean, 0.0) / (m.n - 1)) if m.n > 1 else 0.0
            half = half_width(m.n, sd, plan.rho2, plan.alpha)
            rows.append({"metric": name, "kind": "mean", "estimate": mean, "ci": [mean - half, mean + half],
                         "goal": goal, "settled": half <= goal, "why": f"within +/-{goal:g}"})
        elif name == "first_player":
            rows.append(_rate_row("first player win rate", tally.first_wins, tally.first_games, goal, plan))
        elif name == "seats":
            rows += [_rate_row(f"seat {seat} win rate", won, tally.games, goal, plan)
                     for seat, won in enumerate(tally.wins)]
        elif name == "no_winner":
            rows.append(_rate_row("no winner", tally.no_winner, tally.games, goal, plan))
        else:
            limited = sum(c for reason, c in tally.ends.items() if reason.endswith("_limit"))
            rows.append(_rate_row("games at a limit", limited, tally.games, goal, plan))
    return rows


def text(found: dict) -> str:
    """The sequential part of a report, for people."""
    why = {"settled": "every figure below is settled", "cap": "the cap was reached",
           "interrupted": "it was interrupted"}[found["stopped"]]
    from .report import wrap

    lines = [wrap(f"Played until settled: {found['games']:,} games of at most {found['cap']:,} "
                  f"({found['looks']} look{'s' if found['looks'] != 1 else ''} at batches of {found['batch']:,}); "
                  f"stopped because {why}."),
             wrap(f"Intervals below: 95% confidence sequences, valid at every look ({METHOD}); each keeps "
                  "its 5% error rate however early the run stopped. The fixed-sample intervals above are "
                  "narrower and are not adjusted for the looks: rely on these.")]
    for row in found["figures"]:
        if row["estimate"] is None:
            lines.append(f"  - {row['metric']}: too few games")
            continue
        said = f"settled, {row['why']}" if row["settled"] else "not settled"
        if row["kind"] == "mean":  # simulate --precision: a mean in its own units
            lines.append(f"  - {row['metric']}: {row['estimate']:.2f} (95% CS {row['ci'][0]:.2f} to "
                         f"{row['ci'][1]:.2f}): {said}")
            continue
        if "goal" in row:  # simulate --precision: a rate
            lines.append(f"  - {row['metric']}: {100 * row['estimate']:.1f}% (95% CS {100 * row['ci'][0]:.1f} "
                         f"to {100 * row['ci'][1]:.1f}%): {said}")
            continue
        unit = "%" if row["kind"] == "ratio" else " points"
        lo, hi = (100 * x for x in row["ci"])
        lines.append(f"  - {row['metric']}: {100 * row['estimate']:+.1f}{unit} "
                     f"(95% CS {lo:+.1f} to {hi:+.1f}{unit}): {said}")
    return "\n".join(lines) + "\n"
