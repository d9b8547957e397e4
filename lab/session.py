"""The three lab commands as library calls: ``simulate``, ``compare`` and ``sweep``.

Each takes the rulesets and the run's options, plays the games (runner.py)
and gives a :class:`Result`: the text report, the JSON data and, on request,
the HTML page. The command line only parses options and prints.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..interpreter.rules.load import UsageError
from . import skill
from .rulesets import Ruleset, load_ruleset  # noqa: F401 (Ruleset for the command line)
from .runner import Job, Outcome, ResumeError, prepare, run_job


@dataclass
class Options:
    """How to run: the same for the three commands."""

    players: int | None = None
    games: int = 1000
    bots: tuple = ("random",)
    seed: int = 0
    rotate: bool = True
    workers: int | None = None  # None: every core
    scheduler: str | None = None
    out: str | None = None
    resume: bool = False
    progress: object = None  # on_progress(done, total), or None
    deal_per_rotation: bool = False  # game i deals seed + i // players (runner.Job)
    skill: str | None = None  # a stronger player's bot spec: measure what it gains (skill.py)
    skill_games: int | None = None  # games of the skill run (default: games)
    until_settled: object = None  # a sequential.Plan: play in batches until settled (compare, simulate)
    precision: dict | None = None  # simulate: figure -> half-width wanted (sequential.precise)


@dataclass
class Result:
    text: str
    data: dict
    interrupted: bool
    html: object = None  # a function giving the HTML page, drawn only when asked


def default_workers(games: int, arms: int) -> int:
    """Every core this process may use; fewer for small runs, where starting a worker
    (about a second) would cost more than it saves."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, games * arms // 200))


def players_for(edition, players: int | None) -> int:
    lo, hi = edition.players
    if players is None:
        return min(max(4, lo), hi)
    if not lo <= players <= hi:
        raise UsageError(f"{edition.name} is for {lo} to {hi} players, not {players}")
    return players


def _run(arms: list, options: Options):
    from .summary import card_info

    editions = [load_ruleset(arm) for arm in arms]
    players = players_for(editions[0], options.players)
    for edition in editions[1:]:  # every ruleset must allow the same table
        players_for(edition, players)
    job = Job(tuple(arms), players, tuple(options.bots), options.seed, options.games, options.rotate,
              deal_per_rotation=options.deal_per_rotation)
    job, digests = prepare(job)
    workers = options.workers or default_workers(options.games, len(arms))
    sequential = None
    if options.until_settled is not None:
        outcome, sequential = _run_settling(job, digests, workers, options)
    else:
        try:
            outcome = run_job(job, digests, workers=workers, out=options.out, resume=options.resume,
                              on_progress=options.progress, scheduler=options.scheduler)
        except ResumeError as exc:
            raise UsageError(str(exc)) from None
    meta = {"players": players, "bots": list(options.bots), "seed": options.seed, "games": outcome.games,
            "target": options.games, "rotate": options.rotate, "workers": outcome.workers,
            "scheduler": options.scheduler, "played": outcome.played, "resumed": outcome.resumed,
            "games_played": outcome.played * len(arms),  # every ruleset's games: played is per ruleset
            "seconds": round(outcome.seconds, 3), "out": options.out, "reruns": outcome.reruns,
            "games_per_second": round(outcome.played * len(arms) / outcome.seconds, 1)
            if outcome.seconds and outcome.played else None,
            "interrupted": outcome.interrupted, "rulesets": [arm.to_dict() for arm in arms],
            "deal_per_rotation": options.deal_per_rotation,
            "digests": digests}
    if sequential is not None:
        meta["sequential"] = sequential
    infos = [card_info(edition, players) for edition in editions]
    return outcome, meta, editions, infos


def _run_settling(job: Job, digests: list, workers: int, options: Options):
    """Play ``job`` in batches until every paired difference is settled (sequential.py):
    each batch a job of its own, its first game a whole number of rotations in, so game
    ``start + i`` is dealt and seated as in a fixed run of the same seed."""
    from dataclasses import replace

    from . import sequential

    if options.out is not None or options.resume:
        raise UsageError("--until-settled plays in batches and keeps no --out file: leave out --out and --resume")
    plan = options.until_settled
    lab = job.new_lab()
    total = Outcome(lab, 0, workers=workers, scheduler=options.scheduler)

    def play(start: int, stop: int) -> bool:
        offset = start // job.players if job.deal_per_rotation else start
        part = replace(job, seed=job.seed + offset, games=stop - start)
        progress = None
        if options.progress is not None:
            progress = lambda done, _total: options.progress(start + done, plan.cap)  # noqa: E731
        found = run_job(part, digests, workers=workers, on_progress=progress, scheduler=options.scheduler)
        lab.merge(found.lab)
        total.games += found.games
        total.played += found.played
        total.seconds += found.seconds
        total.reruns += found.reruns
        total.workers = found.workers
        total.interrupted = found.interrupted
        return found.interrupted

    labels = [arm.label for arm in job.arms]

    def named() -> list:
        return [f for k, paired in enumerate(lab.paired)
                for f in sequential.figures(paired, plan.groups,
                                            f"{labels[k + 1]}: " if len(lab.paired) > 1 else "")]

    look = None
    if options.precision:
        def look() -> list:
            return sequential.precise(lab.tallies[0], options.precision, plan)
    found = sequential.run(play, named, plan, job.players, look=look)
    found["games"] = total.games  # an interrupted batch counts only its finished games
    return total, found


def simulate(arm: Ruleset, options: Options) -> Result:
    from . import html, report
    from .summary import summarize

    outcome, meta, editions, infos = _run([arm], options)
    summary = summarize(outcome.lab.tallies[0], label=f"{editions[0].name} ({arm.label})", cards=infos[0])
    text = report.simulate_text(summary, meta)
    data = {"command": "simulate", "meta": meta, "summary": summary}
    if "sequential" in meta:
        from . import sequential

        data["sequential"] = meta.pop("sequential")
        text += "\n" + sequential.text(data["sequential"])
    found = _skill([arm], [summary["label"]], _played(options, outcome), outcome.interrupted)
    if found is not None:
        data["skill"] = found
        text += "\n" + skill.text(found)
    return Result(text, data, outcome.interrupted,
                  lambda: html.simulate_page(summary, text, found))


def compare(arms: list, options: Options) -> Result:
    from . import html, report
    from .comparison import compare as paired_summary
    from .summary import summarize

    if len(arms) < 2:
        raise UsageError("compare needs two rulesets or more (the first is the baseline)")
    outcome, meta, editions, infos = _run(arms, options)
    labels = [arm.label for arm in arms]
    if len(set(labels)) < len(labels):
        labels = [f"{label} [{k}]" for k, label in enumerate(labels)]
    summaries = [summarize(t, label=label, cards=info)
                 for t, label, info in zip(outcome.lab.tallies, labels, infos)]
    uncounted = {card_id for info in infos for card_id, known in info.items() if not known["noped_counted"]}
    comparisons = [paired_summary(p, baseline=labels[0], other=label, uncounted=uncounted)
                   for p, label in zip(outcome.lab.paired, labels[1:])]
    text = report.compare_text(summaries, comparisons, meta)
    data = {"command": "compare", "meta": meta, "rulesets": summaries, "comparisons": comparisons}
    if "sequential" in meta:
        from . import sequential

        data["sequential"] = meta.pop("sequential")
        text += "\n" + sequential.text(data["sequential"])
    found = _skill(arms, labels, _played(options, outcome), outcome.interrupted)
    if found is not None:
        data["skill"] = found
        text += "\n" + skill.text(found)
    return Result(text, data, outcome.interrupted,
                  lambda: html.compare_page(summaries, text, comparisons, found))


def _played(options: Options, outcome) -> Options:
    """The options of a run that played in batches until settled, with its games those it
    played (the skill series then plays as many, not the cap)."""
    if options.until_settled is None:
        return options
    from dataclasses import replace

    return replace(options, games=outcome.games)


def _skill(arms: list, labels: list, options: Options, interrupted: bool) -> dict | None:
    """With ``options.skill``: a second run, one seat of the stronger player against the
    run's bots in the others (seats rotating), and what it gains under each ruleset."""
    if not options.skill or interrupted:
        return None
    from dataclasses import replace

    from .summary import summarize

    players = players_for(load_ruleset(arms[0]), options.players)
    weak = [options.bots[seat % len(options.bots)] for seat in range(players - 1)]
    lineup = (options.skill, *weak)
    run = replace(options, bots=lineup, rotate=True, games=options.skill_games or options.games,
                  until_settled=None, precision=None,
                  out=None, resume=False, deal_per_rotation=False)
    outcome, meta, _editions, infos = _run(arms, run)
    summaries = [summarize(t, label=label, cards=info) for t, label, info in zip(outcome.lab.tallies, labels, infos)]
    return skill.measure(options.skill, weak, summaries, list(outcome.lab.paired), meta)


_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$")


def parse_sweep(text: str, key: str) -> tuple[str, list]:
    """``NAME=A..B`` (whole numbers, ``A..B/STEP`` for a step) or ``NAME=v1,v2,...``
    (numbers, true/false): the name and its values."""
    match = _RANGE.match(text)
    if not match:
        raise UsageError(f"'{text}' is not a sweep: write NAME=A..B (e.g. hand_size=4..8) or NAME=v1,v2,...")
    name, spec = match.groups()
    values: list = []
    span = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)(?:\s*/\s*(\d+))?", spec)
    if span:
        lo, hi, step = int(span.group(1)), int(span.group(2)), int(span.group(3) or 1)
        if hi < lo or step < 1:
            raise UsageError(f"'{text}': the range must go up (A..B with A <= B, a step of 1 or more)")
        values = list(range(lo, hi + 1, step))
    else:
        for part in spec.split(","):
            part = part.strip()
            if re.fullmatch(r"-?\d+", part):
                values.append(int(part))
            elif part in ("true", "false"):
                if key == "set_counts":
                    raise UsageError(f"'{text}': a card count is a whole number")
                values.append(part == "true")
            else:
                raise UsageError(f"'{text}': '{part}' is not a whole number (or true/false)")
    if len(values) > 50:
        raise UsageError(f"'{text}' has {len(values)} points; sweep at most 50 (use a step: A..B/STEP)")
    return name, values


def check_metrics(names) -> list:
    """The --metric names, checked before any game is played."""
    from .summary import METRICS_HELP, metric

    probe = {"games": 0, "turns": {"mean": None, "ci": None}, "decisions": {"mean": None, "ci": None},
             "first_player": {"rate": None, "ci": None}, "no_winner": {"rate": None, "ci": None},
             "limits": {"rate": None, "ci": None}, "seats": [], "teams": [], "bots": [], "cards": [],
             "fairness": {"p_value": None}, "chance_rate": None, "eliminations": {"order": []}}
    for name in names:
        kind = name.partition(":")[0]
        try:
            if kind not in ("seat", "team"):
                metric(probe, name)
            elif not name.partition(":")[2].isdigit():
                raise KeyError(name)
        except KeyError:
            raise UsageError(f"unknown metric '{name}'; the metrics are: {METRICS_HELP}") from None
    return list(names)


def sweep(arm: Ruleset, key: str, name: str, values: list, options: Options, metrics=()) -> Result:
    from . import html, report
    from .summary import summarize, sweep_curve

    metrics = check_metrics(metrics)
    arms = [arm.with_change(key, name, value) for value in values]
    outcome, meta, editions, infos = _run(arms, options)
    summaries = [summarize(t, label=f"{name}={value}", cards=info)
                 for t, value, info in zip(outcome.lab.tallies, values, infos)]
    curve = sweep_curve(name, values, summaries, metrics)
    text = report.sweep_text(curve, meta)
    data = {"command": "sweep", "meta": meta, "parameter": name, "change": key, "curve": curve}
    return Result(text, data, outcome.interrupted, lambda: html.sweep_page(curve, summaries, text))
