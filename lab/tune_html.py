"""The HTML page of a tuning study (``kittens tune --report``), in the lab's style
(html.py): how the search went, how each tuned value moves each target's figure,
and the best candidates side by side, in words a designer reads without statistics."""

from __future__ import annotations

import html as escape

from .html import _figure, _legend_below, _png
from .html import page as lab_page


def history_plot(trials: list) -> str:
    """Each trial's loss in order, the pruned ones marked, and the best so far."""
    fig, ax = _figure()
    done = [t for t in trials if t.state.name == "COMPLETE"]
    ax.scatter([t.number for t in done], [t.value for t in done], s=18, label="played every game")
    pruned = [t for t in trials if t.state.name == "PRUNED" and t.intermediate_values]
    if pruned:
        ax.scatter([t.number for t in pruned], [min(t.intermediate_values.values()) for t in pruned],
                   marker="x", color="grey", label="stopped early (its most favourable loss)")
    best, line = float("inf"), []
    for t in sorted(done, key=lambda t: t.number):
        best = min(best, t.value)
        line.append((t.number, best))
    if line:
        ax.step(*zip(*line), where="post", color="black", linewidth=1, label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("loss (0: every target met)")
    ax.set_title("The search: each trial's loss")
    _legend_below(ax)
    return _png(fig)


def effect_plot(question, trials: list, dim, k: int) -> str:
    """Target ``k``'s figure at each value of ``dim`` (every played trial a point), with
    its goal drawn across."""
    fig, ax = _figure(6, 2.8)
    target = question.targets[k]
    xs, ys = [], []
    for t in trials:
        row = (t.user_attrs.get("assessment") or {"targets": []})["targets"]
        fresh = "same_as" not in t.user_attrs  # a point read back is drawn once
        if t.state.name == "COMPLETE" and k < len(row) and row[k]["value"] is not None and fresh:
            xs.append(str(t.params[dim.key]))
            ys.append(row[k]["value"])
    order = [str(v) for v in dim.values]
    ax.scatter([order.index(x) for x in xs], ys, s=18)
    ax.set_xticks(range(len(order)), order)
    for bound in (target.low, target.high):
        if bound is not None:
            ax.axhline(bound, color="green", linestyle="--", linewidth=1)
    ax.set_xlabel(dim.key)
    ax.set_ylabel(target.figure)
    ax.set_title(f"{target.figure} by {dim.key}")
    return _png(fig)


def candidates_table(question, best: list) -> str:
    """The best candidates side by side: a column each, a row per target."""
    if not best:
        return ""
    head = "<tr><th>target</th>" + "".join(
        f"<th>{rank}. " + escape.escape(", ".join(f"{k}={v}" for k, v in c["point"].items())) + "</th>"
        for rank, c in enumerate(best, 1)) + "</tr>"
    rows = []
    for k, target in enumerate(question.targets):
        cells = []
        for c in best:
            row = c["targets"][k]
            if row["value"] is None:
                cells.append("not told by the games")
                continue
            ci = f" ({row['ci'][0]:.1f} to {row['ci'][1]:.1f})" if row["ci"] else ""
            said = {"clearly": "met", "yes": "met, just", "no": "missed", "n/a": ""}[row["met"]]
            cells.append(f"{row['value']:.1f}{ci} {said}".strip())
        rows.append(f"<tr><td>{escape.escape(target.text)}</td>"
                    + "".join(f"<td>{escape.escape(x)}</td>" for x in cells) + "</tr>")
    losses = "<tr><td>loss</td>" + "".join(f"<td>{c['loss']:.2f}</td>" for c in best) + "</tr>"
    return ("<h2>The best candidates side by side</h2><p>Each figure with the range its true value "
            "lies in, 95 times in 100 (the games played tell it no closer).</p>"
            f"<div class='scroll'><table>{head}{''.join(rows)}{losses}</table></div>")


def page(question, result: dict, best: list, found: dict, text: str) -> str:
    trials = result["trials"]
    plots = [("How the search went", history_plot(trials))]
    for dim in question.dims:
        for k in range(len(question.targets)):
            plots.append((f"What {dim.key} does to {question.targets[k].figure}",
                          effect_plot(question, trials, dim, k)))
    return lab_page(f"kittens tune: {question.base.label}", text, plots, [candidates_table(question, best)])
