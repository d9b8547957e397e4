"""Intervals and tests on the lab's sums, from scipy (nothing here is hand-rolled
statistics: these functions only feed scipy the right counts).

* a rate (wins of games): Wilson interval, exact binomial test against a chance rate;
* a mean of whole numbers (turns): Student's t interval from n, sum and sum of squares;
* a fair share between seats: Pearson's chi-square goodness-of-fit test;
* the same games under two rulesets (common random numbers): a paired t interval and
  test on the per-game differences, McNemar's exact test for paired yes/no outcomes,
  and the ratio of two means with a delta-method interval;
* two rates of different seat-games (played a card or not): Fisher's exact test and
  Newcombe's interval for the difference.
"""

from __future__ import annotations

import math

LEVEL = 0.95


def _scipy():
    from scipy import stats
    return stats


def rate(k: int, n: int, chance: float | None = None) -> dict:
    """``k`` of ``n``: the rate, its Wilson interval and, given ``chance``, the exact
    binomial test's p-value against it."""
    if n == 0:
        return {"count": k, "n": 0, "rate": None, "ci": None}
    result = _scipy().binomtest(k, n, chance if chance is not None else 0.5)
    ci = result.proportion_ci(confidence_level=LEVEL, method="wilson")
    out = {"count": k, "n": n, "rate": k / n, "ci": [float(ci.low), float(ci.high)]}
    if chance is not None:
        out["chance"] = chance
        out["p_value"] = float(result.pvalue)
    return out


def mean(n: int, s: int, ss: int) -> dict:
    """The mean of ``n`` numbers with sum ``s`` and sum of squares ``ss``, with Student's t interval."""
    if n == 0:
        return {"n": 0, "mean": None, "ci": None, "sd": None}
    m = s / n
    if n == 1:
        return {"n": 1, "mean": m, "ci": None, "sd": None}
    var = max(ss - s * s / n, 0.0) / (n - 1)
    sd = math.sqrt(var)
    half = float(_scipy().t.ppf(0.5 + LEVEL / 2, n - 1)) * sd / math.sqrt(n)
    return {"n": n, "mean": m, "ci": [m - half, m + half], "sd": sd}


def quantiles(hist: dict, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> dict:
    """Quantiles of whole numbers given as value -> count (the lowest value reaching each share)."""
    total = sum(hist.values())
    out = {}
    if not total:
        return out
    ordered = sorted(hist.items())
    for q in qs:
        need, seen = q * total, 0
        for value, count in ordered:
            seen += count
            if seen >= need:
                out[f"{round(q * 100)}%"] = value
                break
    return out


def fairness(wins: list[int]) -> dict:
    """Whether wins are shared equally between seats: chi-square goodness of fit.
    ``reliable`` is false when a seat expects fewer than five wins (the test's rule of thumb)."""
    total = sum(wins)
    if total == 0 or len(wins) < 2:
        return {"test": "chi-square", "statistic": None, "df": len(wins) - 1, "p_value": None,
                "reliable": False}
    result = _scipy().chisquare(wins)
    return {"test": "chi-square", "statistic": float(result.statistic), "df": len(wins) - 1,
            "p_value": float(result.pvalue), "reliable": total / len(wins) >= 5}


def paired(pm) -> dict:
    """Mean difference (b - a) over the same games, its t interval and the paired t-test."""
    n = pm.n
    out = {"n": n, "mean_a": pm.sa / n if n else None, "mean_b": pm.sb / n if n else None}
    if n < 2:
        return {**out, "difference": None, "ci": None, "p_value": None}
    diff = (pm.sb - pm.sa) / n
    sum_d2 = pm.sbb - 2 * pm.sab + pm.saa
    var = max(sum_d2 - n * diff * diff, 0.0) / (n - 1)
    if var == 0:  # every game differs by the same amount (often: not at all)
        return {**out, "difference": diff, "ci": [diff, diff], "p_value": 1.0 if diff == 0 else 0.0}
    se = math.sqrt(var / n)
    t = _scipy().t
    half = float(t.ppf(0.5 + LEVEL / 2, n - 1)) * se
    p = float(2 * t.sf(abs(diff) / se, n - 1))
    return {**out, "difference": diff, "ci": [diff - half, diff + half], "p_value": p}


def ratio(pm) -> dict:
    """The ratio of the means, b / a, over the same games, with a delta-method interval
    (the pairing's covariance included) and the paired t-test's p-value."""
    n = pm.n
    base = paired(pm)
    if n < 2 or pm.sa == 0:
        return {**base, "ratio": None, "ratio_ci": None}
    ma, mb = pm.sa / n, pm.sb / n
    r = mb / ma
    var_a = max(pm.saa - n * ma * ma, 0.0) / (n - 1)
    var_b = max(pm.sbb - n * mb * mb, 0.0) / (n - 1)
    cov = (pm.sab - n * ma * mb) / (n - 1)
    var_r = max(var_b + r * r * var_a - 2 * r * cov, 0.0) / (n * ma * ma)
    half = float(_scipy().t.ppf(0.5 + LEVEL / 2, n - 1)) * math.sqrt(var_r)
    return {**base, "ratio": r, "ratio_ci": [r - half, r + half]}


def paired_rate(pm) -> dict:
    """Two yes/no outcomes of the same games: the difference in rates (b - a) with its
    paired interval, and McNemar's exact test on the games where they disagree."""
    base = paired(pm)
    only_a, only_b = pm.sa - pm.sab, pm.sb - pm.sab
    discordant = only_a + only_b
    p = float(_scipy().binomtest(only_b, discordant, 0.5).pvalue) if discordant else 1.0
    return {**base, "rate_a": base["mean_a"], "rate_b": base["mean_b"], "only_a": only_a,
            "only_b": only_b, "p_value": p, "test": "McNemar exact"}


def two_rates(k1: int, n1: int, k2: int, n2: int) -> dict:
    """Rate 1 minus rate 2 of separate groups: Newcombe's hybrid Wilson interval and
    Fisher's exact test."""
    if not n1 or not n2:
        return {"difference": None, "ci": None, "p_value": None}
    one, two = rate(k1, n1), rate(k2, n2)
    p1, p2 = one["rate"], two["rate"]
    (l1, u1), (l2, u2) = one["ci"], two["ci"]
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    p = _scipy().fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue
    return {"difference": d, "ci": [lo, hi], "p_value": float(p), "test": "Fisher exact"}
