"""One self-contained HTML page of a lab run: plots (matplotlib, drawn off-screen and
embedded as PNG data) and the tables behind them. Nothing is fetched when it opens."""

from __future__ import annotations

import base64
import html
import io

from .report import _ci, _p, _pct, noped_cell


def _figure(width: float = 7, height: float = 3.2):
    import matplotlib
    matplotlib.use("Agg")  # no display: draw to memory
    from matplotlib import pyplot

    return pyplot.subplots(figsize=(width, height), dpi=100)


def _png(fig) -> str:
    from matplotlib import pyplot

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", bbox_inches="tight")  # a legend below the axes included
    alt = html.escape(" / ".join(ax.get_title() for ax in fig.axes if ax.get_title()), quote=True)
    pyplot.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{alt}" src="data:image/png;base64,{data}">'


def _errors(rate, ci):
    if rate is None or not ci:
        return [0], [0]
    return [max(rate - ci[0], 0)], [max(ci[1] - rate, 0)]


def seat_plot(summaries: list) -> str:
    """Win rate by seat with 95% intervals, a group of bars per ruleset, and the chance rate."""
    fig, ax = _figure()
    players = summaries[0]["players"]
    width = 0.8 / len(summaries)
    for k, summary in enumerate(summaries):
        xs = [seat + k * width - 0.4 + width / 2 for seat in range(players)]
        rates = [s["rate"] or 0 for s in summary["seats"]]
        lows = [_errors(s["rate"], s["ci"])[0][0] for s in summary["seats"]]
        highs = [_errors(s["rate"], s["ci"])[1][0] for s in summary["seats"]]
        ax.bar(xs, rates, width, yerr=[lows, highs], capsize=3, label=summary["label"])
    chance = summaries[0]["chance_rate"]
    if chance is not None:
        ax.axhline(chance, color="black", linestyle="--", linewidth=1, label="chance rate")
    ax.set_xticks(range(players), [f"seat {s}" for s in range(players)])
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Win rate by seat (95% CI)")
    _legend_below(ax)
    return _png(fig)


def _percent():
    from matplotlib.ticker import PercentFormatter
    return PercentFormatter(1.0, decimals=0)


def _legend_below(ax) -> None:
    """The legend under the plot, where it covers no bar or point (labels can be long)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.18),
                  ncol=min(len(handles), 5), frameon=False)


def length_plot(summaries: list) -> str:
    """Distributions of game length in turns, overlaid for each ruleset."""
    fig, ax = _figure()
    for summary in summaries:
        hist = summary["turns"]["histogram"]
        if not hist:
            continue
        total = sum(count for _v, count in hist)
        ax.step([v for v, _c in hist], [c / total for _v, c in hist], where="mid", label=summary["label"])
    ax.set_xlabel("turns")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.yaxis.set_major_formatter(_percent())
    if len(summaries) > 1:
        _legend_below(ax)
    return _png(fig)


def card_plot(summary: dict) -> str:
    """Per card: the win rate of seats that played it minus those that held it unplayed."""
    rows = [c for c in summary["cards"] if c["played_minus_held"]["difference"] is not None]
    fig, ax = _figure(7, max(2.0, 0.3 * len(rows) + 1))
    if rows:
        diffs = [c["played_minus_held"]["difference"] for c in rows]
        lows = [d - c["played_minus_held"]["ci"][0] for d, c in zip(diffs, rows)]
        highs = [c["played_minus_held"]["ci"][1] - d for d, c in zip(diffs, rows)]
        ax.errorbar(diffs, range(len(rows)), xerr=[lows, highs], fmt="o", capsize=3)
        ax.set_yticks(range(len(rows)), [c["card"] for c in rows])
        ax.axvline(0, color="black", linewidth=1)
    ax.set_xlabel("win rate when played minus when held and not played")
    ax.set_title("Per-card impact (95% CI)")
    return _png(fig)


def sweep_plot(curve: dict) -> str:
    """Sweep curves: mean turns, and each seat's win rate, with 95% intervals."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    points = curve["points"]
    values = [p["value"] for p in points]
    xs = list(range(len(values)))
    fig, (left, right) = pyplot.subplots(1, 2, figsize=(10, 3.8), dpi=100)
    turns = [p["turns"] or 0 for p in points]
    low = [t - (p["turns_ci"] or [t, t])[0] for t, p in zip(turns, points)]
    high = [(p["turns_ci"] or [t, t])[1] - t for t, p in zip(turns, points)]
    left.errorbar(xs, turns, yerr=[low, high], fmt="o-", capsize=3)
    left.set_title("Mean turns (95% CI)")
    seats = len(points[0]["seats"]) if points else 0
    for seat in range(seats):
        rates = [p["seats"][seat][0] or 0 for p in points]
        lo = [r - (p["seats"][seat][1] or [r, r])[0] for r, p in zip(rates, points)]
        hi = [(p["seats"][seat][1] or [r, r])[1] - r for r, p in zip(rates, points)]
        shift = (seat - (seats - 1) / 2) * 0.3 / max(seats, 1)  # side by side, not on top
        right.errorbar([x + shift for x in xs], rates, yerr=[lo, hi], fmt="o-", capsize=2,
                       label=f"seat {seat}")
    chances = [p["summary"]["chance_rate"] for p in points if "summary" in p]
    if chances and all(c is not None and abs(c - chances[0]) < 1e-9 for c in chances):
        right.axhline(chances[0], color="black", linestyle="--", linewidth=1, label="chance rate")
    right.yaxis.set_major_formatter(_percent())
    right.set_title("Win rate by seat (95% CI)")
    _legend_below(right)
    for ax in (left, right):
        ax.set_xticks(xs, [str(v) for v in values])
        ax.set_xlabel(curve["parameter"])
    return _png(fig)


_STYLE = """body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:85%}
td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{vertical-align:bottom;white-space:normal}td:first-child,th:first-child{text-align:left}
pre{background:#f6f6f6;padding:1em;overflow:auto}img{max-width:100%;height:auto}"""


def page(title: str, text: str, plots: list, tables: list = ()) -> str:
    """The page: title, the plots, any tables, then the text report in full."""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"]
    for heading, image in plots:
        parts.append(f"<h2>{html.escape(heading)}</h2>{image}")
    parts.extend(tables)
    parts.append(f"<h2>Report</h2><pre>{html.escape(text)}</pre></body></html>")
    return "".join(parts)


def card_table(summary: dict) -> str:
    head = ("card", "plays/game", "in combos/game", "Noped", "drawn/game", "at end/game",
            "win when played", "win when held", "difference, points", "p")
    rows = []
    n = summary["games"] or 1
    for c in summary["cards"]:
        diff = c["played_minus_held"]
        cells = (c["card"] + (" (never played)" if c["never_played"] else ""), f"{c['plays'] / n:.2f}",
                 f"{c['in_combos'] / n:.2f}", noped_cell(c), f"{c['drawn'] / n:.2f}",
                 f"{c['held_at_end'] / n:.2f}",
                 f"{_pct(c['win_when_played']['rate'])} {_ci(c['win_when_played']['ci'])}",
                 f"{_pct(c['win_when_held_not_played']['rate'])} {_ci(c['win_when_held_not_played']['ci'])}",
                 "" if diff["difference"] is None else
                 f"{100 * diff['difference']:+.1f} ({100 * diff['ci'][0]:+.1f} to {100 * diff['ci'][1]:+.1f})",
                 "" if diff["p_value"] is None else _p(diff["p_value"]))
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in cells) + "</tr>")
    header = "<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
    return f"<h2>Cards, in figures</h2><div class='scroll'><table>{header}{''.join(rows)}</table></div>"


def skill_plot(found: dict) -> str:
    """The stronger player's win rate under each ruleset (95% CI), against the equal share."""
    fig, ax = _figure(7, max(2.0, 0.45 * len(found["rulesets"]) + 1.2))
    rows = [row for row in found["rulesets"] if row["rate"] is not None]
    for y, row in enumerate(rows):
        low, high = _errors(row["rate"], row["ci"])
        ax.errorbar([row["rate"]], [y], xerr=[low, high], fmt="o", capsize=3, color="tab:blue")
    if rows:
        ax.axvline(rows[0]["chance"], color="black", linestyle="--", linewidth=1, label="equal share")
        ax.set_yticks(range(len(rows)), [row["ruleset"] for row in rows])
        ax.invert_yaxis()
        _legend_below(ax)
    ax.xaxis.set_major_formatter(_percent())
    ax.set_xlabel(f"win rate of one {found['strong']} player against {', '.join(found['weak'])}")
    ax.set_title("Skill: what a stronger player wins (95% CI)")
    return _png(fig)


def _skill_plots(found) -> list:
    return [("Skill", skill_plot(found))] if found else []


def simulate_page(summary: dict, text: str, skill: dict | None = None) -> str:
    return page(f"Simulation: {summary['label']}", text,
                [("Seats", seat_plot([summary])), ("Game length", length_plot([summary])),
                 ("Cards", card_plot(summary))] + _skill_plots(skill), [card_table(summary)])


def change_plot(comparison: dict) -> str:
    """Each rate's change against the baseline over the same games (seats, the first
    player, games without a winner, each bot's share), in points with its 95% interval."""
    rows = [m for m in comparison["metrics"] if "rate_a" in m and m.get("ci")]
    fig, ax = _figure(7, max(2.0, 0.3 * len(rows) + 1.2))
    if rows:
        diffs = [100 * m["difference"] for m in rows]
        lows = [d - 100 * m["ci"][0] for d, m in zip(diffs, rows)]
        highs = [100 * m["ci"][1] - d for d, m in zip(diffs, rows)]
        colors = ["tab:red" if m["significant"] else "tab:blue" for m in rows]
        for y, (d, lo, hi, color) in enumerate(zip(diffs, lows, highs, colors)):
            ax.errorbar([d], [y], xerr=[[lo], [hi]], fmt="o", capsize=3, color=color)
        ax.set_yticks(range(len(rows)), [m["metric"] for m in rows])
        ax.invert_yaxis()  # seat 0 at the top, as in the text
        ax.axvline(0, color="black", linewidth=1)
    ax.set_xlabel(f"change in points, {comparison['other']} minus {comparison['baseline']} "
                  "(red: p < 0.05)")
    ax.set_title("Changes in win rates (95% CI)")
    return _png(fig)


def compare_page(summaries: list, text: str, comparisons: list = (), skill: dict | None = None) -> str:
    return page("Comparison: " + " vs ".join(s["label"] for s in summaries), text,
                [(f"What changes: {c['other']}", change_plot(c)) for c in comparisons]
                + _skill_plots(skill)
                + [("Seats", seat_plot(summaries)), ("Game length", length_plot(summaries))]
                + [(f"Cards: {s['label']}", card_plot(s)) for s in summaries])


def metric_plot(curve: dict, name: str) -> str:
    """One metric asked for with --metric, over the sweep, with its interval where it has one."""
    fig, ax = _figure()
    points = curve["points"]
    xs = list(range(len(points)))
    values = [p["metrics"][name]["value"] for p in points]
    shown = [(x, v, p["metrics"][name]["ci"]) for x, v, p in zip(xs, values, points) if v is not None]
    if shown:
        lows = [v - ci[0] if ci else 0 for _x, v, ci in shown]
        highs = [ci[1] - v if ci else 0 for _x, v, ci in shown]
        ax.errorbar([x for x, _v, _c in shown], [v for _x, v, _c in shown], yerr=[lows, highs],
                    fmt="o-", capsize=3)
    ax.set_xticks(xs, [str(p["value"]) for p in points])
    ax.set_xlabel(curve["parameter"])
    ax.set_title(name)
    return _png(fig)


def sweep_page(curve: dict, summaries: list, text: str) -> str:
    return page(f"Sweep of {curve['parameter']}", text,
                [("Curves", sweep_plot(curve)), ("Game length", length_plot(summaries))]
                + [(name, metric_plot(curve, name)) for name in curve.get("metrics", [])])
