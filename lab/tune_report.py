"""What a tuning study found, said plainly: the best candidates with every target's
figure and 95% interval, which target binds when no point meets them all, whether the
best two are told apart, and the house-rule file of the best point."""

from __future__ import annotations

import json
import os

import yaml


def candidates(trials: list, show: int = 5) -> list:
    """The finished trials that played every game, best first (ties: the earlier), each
    point once."""
    done = sorted((t for t in trials if t.state.name == "COMPLETE" and "unplayable" not in t.user_attrs),
                  key=lambda t: (t.value, t.number))
    found, seen = [], set()
    for t in done:
        key = json.dumps(t.params, sort_keys=True)
        if key not in seen:
            seen.add(key)
            found.append({"trial": t.number, "point": dict(t.params), "loss": t.value,
                          "targets": t.user_attrs["assessment"]["targets"]})
    return found[:show]


def _overlap(a, b) -> bool:
    return a is None or b is None or (a[0] <= b[1] and b[0] <= a[1])


def limits(question, trials: list, best: list) -> dict:
    """Honest limits: whether the best candidate meets every bounded target, if not which
    binds (the one fewest points met, then the largest miss at the best), and whether the
    best two candidates are told apart by the games played."""
    found = {"met": None, "binding": None, "told_apart": None}
    if not best:
        return found
    played = list({json.dumps(t.params, sort_keys=True): t for t in reversed(trials)
                   if t.user_attrs.get("assessment") and "unplayable" not in t.user_attrs}.values())  # each once
    bounded = [k for k, target in enumerate(question.targets) if target.bounded]
    top = best[0]["targets"]
    found["met"] = all(top[k]["met"] in ("yes", "clearly") for k in bounded)
    if not found["met"]:
        def met_by(k):
            return sum(t.user_attrs["assessment"]["targets"][k]["met"] in ("yes", "clearly") for t in played)
        k = min((k for k in bounded if top[k]["met"] == "no"),
                key=lambda k: (met_by(k), -(top[k]["loss"] or float("inf"))))
        found["binding"] = {"target": question.targets[k].text, "met_by": met_by(k), "trials": len(played),
                            "miss": top[k]["miss"], "whole_space": _points_tried(trials) >= question.space_size()}
    if len(best) > 1:
        # told apart by a figure whose losses differ (two points that both meet a range are
        # alike on it, however far apart) and whose intervals do not overlap
        found["told_apart"] = any(a["loss"] != b["loss"] and not _overlap(a["ci"], b["ci"])
                                  for a, b in zip(top, best[1]["targets"]))
    return found


def _points_tried(trials: list) -> int:
    return len({json.dumps(t.params, sort_keys=True) for t in trials if t.user_attrs.get("assessment")})


def _point(point: dict) -> str:
    return ", ".join(f"{key.partition('.')[2] or key}={value}" for key, value in point.items())


def _unit(name: str) -> str:
    kind = name.partition(":")[0]
    return {"fairness": " points", "first_edge": " points",
            "skill": " points", "limits": "%", "no_winner": "%", "out": " turns", "card": " a game",
            "drawn": " a game"}.get(kind, "")


def _figure(row: dict) -> str:
    if row["value"] is None:
        return f"{row['figure']}: the games do not tell"
    unit = _unit(row["figure"])
    ci = f" (95% CI {row['ci'][0]:.1f} to {row['ci'][1]:.1f})" if row["ci"] else ""
    return f"{row['figure']} {row['value']:.1f}{unit}{ci}: " + _said(row)


def _said(row: dict) -> str:
    return {"clearly": "met (its whole interval)", "yes": "met (its interval reaches outside)",
            "no": f"missed by {row['miss']:.1f}", "n/a": f"{row['miss']:.1f} from the goal"}[row["met"]]


def text(question, result: dict, best: list, found: dict, out: str | None) -> str:
    """The report for people."""
    trials = result["trials"]
    pruned = sum(t.state.name == "PRUNED" for t in trials)
    again = sum("same_as" in t.user_attrs for t in trials)
    games = sum(t.user_attrs.get("games", 0) for t in trials)
    lines = [f"kittens tune: {question.base.label}, {question.players} players, bots {', '.join(question.bots)}; "
             f"space {', '.join(f'{d.key} ({len(d.values)} values)' for d in question.dims)} "
             f"({question.space_size():,} points)",
             f"targets: {'; '.join(t.text for t in question.targets)}",
             f"{len({json.dumps(t.params, sort_keys=True) for t in trials})} points played in "
             f"{len(trials)} trials ({pruned} stopped after {question.first} games by the pruner, {again} at a "
             f"point already played), {games:,} games in all, every trial on seeds {question.seed}-"
             f"{question.seed + question.games - 1}"
             + (f"; {result['resumed']} trials read back from the study" if result["resumed"] else ""), ""]
    unplayable = {json.dumps(t.params, sort_keys=True): t for t in trials if "unplayable" in t.user_attrs}
    if unplayable:
        t = next(iter(unplayable.values()))
        lines += [f"{len(unplayable)} point{'s' if len(unplayable) != 1 else ''} cannot be played "
                  f"(e.g. {_point(t.params)}: {t.user_attrs['unplayable']}); they are left out.", ""]
    if not best:
        return "\n".join(lines + ["No trial has played all its games yet."]) + "\n"
    lines.append("Best candidates (the loss adds each target's miss, weighted and in its tolerance; "
                 "0: every target met exactly):")
    for rank, cand in enumerate(best, 1):
        lines.append(f" {rank}. {_point(cand['point'])}: loss {cand['loss']:.2f} (trial {cand['trial']})")
        lines += [f"      {_figure(row)}" for row in cand["targets"]]
    lines.append("")
    if found["met"]:
        lines.append("The best candidate meets every range and bound.")
    elif found["binding"]:
        bind = found["binding"]
        where = "No point of the space" if bind["whole_space"] else f"None of the {bind['trials']} points tried"
        lines.append(f"No candidate meets every target: '{bind['target']}' binds ({bind['met_by']} of "
                     f"{bind['trials']} points tried met it; the best misses it by {bind['miss']:.1f}). {where} "
                     f"meets them all: loosen '{bind['target']}' or widen the space.")
    if found["told_apart"] is False:
        lines.append(f"Candidates 1 and 2 are not told apart by {question.games:,} games: wherever their "
                     "losses differ, their intervals overlap. Either will do, or play more games a trial "
                     "(-g) to separate them.")
    if out:
        lines.append(f"house rule written to {out}")
    return "\n".join(lines) + "\n"


def house_rule(question, cand: dict, out: str) -> str:
    """The best point as a house rule: extends the base and sets only what was tuned,
    with its figures in a comment."""
    base = question.base.rules
    if os.path.exists(base):  # a file: named from where the house rule is written
        base = os.path.relpath(os.path.abspath(base), os.path.dirname(os.path.abspath(out)))
    doc: dict = {"format": 1, "kind": "edition", "id": "tuned",
                 "name": f"{os.path.splitext(os.path.basename(question.base.rules))[0]} tuned",
                 "extends": base}
    if question.base.expansions:
        doc["apply"] = list(question.base.expansions)
    variant = cand["point"].get("variant", question.base.variant)
    if variant and variant != "none":
        doc["variant"] = variant
    for key, value in cand["point"].items():
        kind, _, name = key.partition(".")
        if kind in ("count", "param"):
            doc.setdefault("set_counts" if kind == "count" else "set_params", {})[name] = value
    head = [f"# Tuned by kittens tune for: {'; '.join(t.text for t in question.targets)}",
            f"# over {question.games:,} games at {question.players} players, bots {', '.join(question.bots)}, "
            f"seeds {question.seed}-{question.seed + question.games - 1} (95% intervals):"]
    head += [f"#   {_figure(row)}" for row in cand["targets"]]
    return "\n".join(head) + "\n" + yaml.safe_dump(doc, sort_keys=False)


def to_dict(question, result: dict, best: list, found: dict) -> dict:
    trials = result["trials"]
    return {"command": "tune", "study": question.name(), "space_size": question.space_size(),
            "targets": [t.text for t in question.targets],
            "trials": [{"trial": t.number, "state": t.state.name.lower(), "point": dict(t.params),
                        "loss": t.value, "games": t.user_attrs.get("games", 0),
                        **({"unplayable": t.user_attrs["unplayable"]} if "unplayable" in t.user_attrs else {})}
                       for t in trials],
            "games": sum(t.user_attrs.get("games", 0) for t in trials), "played": result["played"],
            "resumed": result["resumed"], "interrupted": result["interrupted"],
            "candidates": best, **found, "meta": {"out": None}}


def page(question, result: dict, best: list, found: dict, text: str) -> str:
    """The HTML report (tune_html.py; matplotlib comes with the lab extra)."""
    from .tune_html import page as draw

    return draw(question, result, best, found, text)
