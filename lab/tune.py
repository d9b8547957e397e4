"""``kittens tune``: search the counts, parameters and variants that meet a designer's targets.

A :class:`Question` names the base ruleset, the space (:class:`Dimension`, the forms
``count.CARD=A..B``, ``param.NAME=A..B`` or ``v1,v2``, ``variant=none,NAME,...``) and
the targets (targets.py). Optuna searches it:

* a TPE sampler, seeded afresh before each trial with the run's seed plus the number of
  trials already finished, so each suggestion depends only on the study's history: a
  study stopped (Ctrl-C, a crash) and run again gives the trials an uninterrupted run gives;
* each trial plays its games on the lab's runner (every core, or ``--scheduler``), the
  same seeds and seats for every trial (common random numbers: two points differ by
  their rules, not their luck); a point already played is not played again;
* after a first batch, the trial reports its *optimistic* loss (targets.py) and Optuna's
  median pruner stops it when even that is worse than the median of earlier trials';
* the study lives in an Optuna storage (a SQLite file, or any URL Optuna takes), named
  after the question, so it resumes, and two machines may share one.

Optuna comes with the ``tune`` extra and is imported only here.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, replace

from ..interpreter.rules.load import RuleError, UsageError
from .rulesets import Ruleset
from .session import parse_sweep

#: at most this many suggestions per point to play (TPE may keep suggesting played points)
REPEATS = 10
#: a loss for a trial whose figures the games cannot give (Optuna wants a number)
NO_FIGURE = 1e9


@dataclass(frozen=True)
class Dimension:
    """One axis of the space: a card count, a parameter or the variant, and its values."""

    kind: str  # "count", "param" or "variant"
    name: str
    values: tuple

    @property
    def key(self) -> str:
        return "variant" if self.kind == "variant" else f"{self.kind}.{self.name}"


def parse_vary(text: str) -> Dimension:
    """``count.nope=2..8``, ``param.hand_size=4..8/2``, ``param.x=true,false``,
    ``variant=none,beginner``: a Dimension (UsageError saying how otherwise)."""
    how = ("write count.CARD=A..B, param.NAME=A..B (or A..B/STEP, v1,v2,...) or variant=none,NAME,... "
           "(e.g. count.nope=2..8)")
    kind, dot, rest = text.strip().partition(".")
    if kind.startswith("variant") and "=" in text:
        key, _, spec = text.partition("=")
        names = tuple(part.strip() for part in spec.split(",") if part.strip())
        if key.strip() != "variant" or not names or not all(re.fullmatch(r"[A-Za-z0-9_]+", n) for n in names):
            raise UsageError(f"--vary '{text}': {how}")
        return Dimension("variant", "variant", names)
    if not dot or kind not in ("count", "param"):
        raise UsageError(f"--vary '{text}': {how}")
    name, values = parse_sweep(rest, "set_counts" if kind == "count" else "set_params")
    if len(set(values)) < 2:
        raise UsageError(f"--vary '{text}': give two values or more (a range A..B with A < B)")
    return Dimension(kind, name, tuple(values))


def check_variants(dims: list, edition, base: Ruleset) -> None:
    """A variant the base does not have is a usage error before any game, not a point to skip."""
    from ..interpreter.rules.load import UnknownVariant, select_variant
    from .rulesets import load_ruleset

    for dim in dims:
        if dim.kind != "variant":
            continue
        plain = load_ruleset(replace(base, variant=None)) if base.variant else edition
        for name in dim.values:
            if name != "none":
                try:
                    select_variant(plain, name, base.rules)
                except UnknownVariant as exc:
                    raise UsageError(f"--vary variant={','.join(dim.values)}: {exc}") from None
                except RuleError:  # a variant that does not apply here: that point is unplayable
                    pass


def apply(base: Ruleset, dims: list, point: dict) -> Ruleset:
    """The ruleset of one point of the space."""
    arm = base
    for dim in dims:
        value = point[dim.key]
        if dim.kind == "variant":
            arm = replace(arm, variant=None if value == "none" else value)
        else:
            arm = arm.with_change("set_counts" if dim.kind == "count" else "set_params", dim.name, value)
    return arm


@dataclass(frozen=True)
class Question:
    """What to tune and how each trial plays."""

    base: Ruleset
    dims: tuple
    targets: tuple
    players: int
    bots: tuple
    seed: int = 0
    games: int = 1000  # per trial
    first: int = 200  # games before the pruner may stop a trial
    rotate: bool = True
    skill: str | None = None  # a stronger bot: the skill target is its edge in a series of its own

    def skill_lineup(self) -> tuple | None:
        """The skill series' bots, one seat of the stronger one against the run's bots, when
        a target asks for skill and --skill names the stronger bot."""
        if self.skill is None or not any(t.figure == "skill" for t in self.targets):
            return None
        return (self.skill, *[self.bots[seat % len(self.bots)] for seat in range(self.players - 1)])

    def name(self) -> str:
        """The study's name: the same question always finds the same study."""
        found = {"base": self.base.to_dict(), "dims": [[d.key, list(d.values)] for d in self.dims],
                 "targets": [t.text for t in self.targets], "players": self.players,
                 "bots": list(self.bots), "seed": self.seed, "games": self.games, "first": self.first,
                 "rotate": self.rotate}
        if self.skill is not None:  # only when set: the names of studies made before it stay
            found["skill"] = self.skill
        return "kittens-tune-" + hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()[:16]

    def space_size(self) -> int:
        return math.prod(len(d.values) for d in self.dims)


def storage_url(study: str) -> str:
    """A path becomes a SQLite URL; a URL (``sqlite:///...``, ``postgresql://...``) is kept."""
    if "://" in study:
        return study
    folder = os.path.dirname(os.path.abspath(study))
    if not os.path.isdir(folder):
        raise UsageError(f"--study {study}: the folder {folder} does not exist")
    return "sqlite:///" + os.path.abspath(study)


def _suggest(trial, dim: Dimension):
    values = list(dim.values)
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    steps = {b - a for a, b in zip(values, values[1:])} if ints else set()
    if len(steps) == 1 and next(iter(steps)) > 0:
        return trial.suggest_int(dim.key, values[0], values[-1], step=next(iter(steps)))
    return trial.suggest_categorical(dim.key, values)


def _play(question: Question, arm: Ruleset, start: int, stop: int, labs: tuple, run: dict) -> bool:
    """Games ``start`` to ``stop`` of ``arm`` (seeded and seated as a fixed run's), summed
    into ``labs[0]``, and of its skill series into ``labs[1]`` when there is one; True
    when interrupted."""
    lineup = question.skill_lineup()
    if _play_one(question, arm, start, stop, labs[0], run, question.bots, question.rotate):
        return True
    return lineup is not None and _play_one(question, arm, start, stop, labs[1], run, lineup, True)


def _play_one(question: Question, arm: Ruleset, start: int, stop: int, lab, run: dict, bots: tuple,
              rotate: bool) -> bool:
    from .runner import Job, prepare, run_job
    from .session import default_workers

    job = Job((arm,), question.players, bots, question.seed + start, stop - start, rotate)
    job, digests = prepare(job)
    progress = run.get("progress")
    on_progress = None if progress is None else lambda done, _total: progress(run["played"] + done)
    found = run_job(job, digests, workers=run.get("workers") or default_workers(stop - start, 1),
                    scheduler=run.get("scheduler"), on_progress=on_progress)
    lab.merge(found.lab)
    run["played"] += found.played
    return found.interrupted


def _trial_games(question: Question, study, trial, arm: Ruleset, run: dict):
    """Play one trial: (state, loss, assessment, games) or None when interrupted."""
    import optuna

    from .runner import Job
    from .summary import summarize
    from .targets import assess, optimistic_loss

    labs = (Job((arm,), question.players, question.bots).new_lab(), Job((arm,), question.players, ()).new_lab())

    def summary() -> dict:
        found = summarize(labs[0].tallies[0], label=arm.label)
        if question.skill_lineup() is not None:
            found["skill_series"] = {**summarize(labs[1].tallies[0], label=arm.label), "strong": question.skill}
        return found

    first = min(question.games, max(question.players, question.first - question.first % question.players))
    before = run["played"]
    if _play(question, arm, 0, first, labs, run):
        return None
    if first < question.games:
        trial.report(min(optimistic_loss(list(question.targets), summary()), NO_FIGURE), 0)
        if trial.should_prune():
            found = assess(list(question.targets), summary())
            return optuna.trial.TrialState.PRUNED, None, found, run["played"] - before
        if _play(question, arm, first, question.games, labs, run):
            return None
    found = assess(list(question.targets), summary())
    return optuna.trial.TrialState.COMPLETE, min(found["loss"], NO_FIGURE), found, run["played"] - before


def _finished(study) -> list:
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return [t for t in study.get_trials(deepcopy=False) if t.state in done]


def _unplayable(study, trial, question: Question, exc) -> None:
    """A point whose rules do not compile (a count the setup cannot deal): kept, with the
    worst loss and the reason, so it is neither played again nor proposed."""
    reason = next((line.strip() for line in str(exc).splitlines() if "error:" in line), str(exc).splitlines()[0])
    rows = [{"target": t.text, "figure": t.figure, "value": None, "ci": None, "miss": None, "met": "no",
             "loss": None} for t in question.targets]
    trial.set_user_attr("assessment", {"loss": NO_FIGURE, "targets": rows})
    trial.set_user_attr("games", 0)
    trial.set_user_attr("unplayable", reason.partition("error: ")[2] or reason)
    study.tell(trial, NO_FIGURE)


def _again(study, trial, known) -> None:
    """A trial at a point already played: the earlier trial's figures, no games."""
    trial.set_user_attr("assessment", known.user_attrs["assessment"])
    trial.set_user_attr("games", 0)
    trial.set_user_attr("same_as", known.number)
    if "unplayable" in known.user_attrs:
        trial.set_user_attr("unplayable", known.user_attrs["unplayable"])
    if known.state.name == "COMPLETE":
        study.tell(trial, known.value)
        return
    for step, value in known.intermediate_values.items():
        trial.report(value, step)
    study.tell(trial, state=known.state)


def run_study(question: Question, *, trials: int, study: str, workers=None, scheduler=None,
              progress=None) -> dict:
    """Run (or continue) the study until ``trials`` points are played (a suggestion of a
    point already played costs nothing and does not count) or the space is played out:
    {"study", "trials", "interrupted", "resumed", "played"}."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    url = storage_url(study)
    pruner = optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0)
    found = optuna.create_study(storage=url, study_name=question.name(), direction="minimize",
                                load_if_exists=True, pruner=pruner)
    resumed = len(_finished(found))
    run = {"played": 0, "workers": workers, "scheduler": scheduler, "progress": progress}
    startup = min(10, max(3, trials // 3))
    interrupted = False
    while True:
        finished = _finished(found)
        seen = {json.dumps(t.params, sort_keys=True): t for t in finished}
        # a point suggested again costs no games and does not count: trials are points played
        if len(seen) >= min(trials, question.space_size()) or len(finished) >= REPEATS * trials:
            break
        found.sampler = optuna.samplers.TPESampler(seed=question.seed + len(finished), n_startup_trials=startup,
                                                   constant_liar=False)
        trial = found.ask()
        try:
            point = {dim.key: _suggest(trial, dim) for dim in question.dims}
            known = seen.get(json.dumps(trial.params, sort_keys=True))
            if known is not None:  # a point already played: the same seeds give the same figures
                _again(found, trial, known)
                continue
            played = _trial_games(question, found, trial, apply(question.base, list(question.dims), point), run)
        except RuleError as exc:  # a point the setup cannot deal: a result, not the end of the study
            _unplayable(found, trial, question, exc)
            continue
        except KeyboardInterrupt:
            played = None
        except BaseException:
            found.tell(trial, state=optuna.trial.TrialState.FAIL)
            raise
        if played is None:
            found.tell(trial, state=optuna.trial.TrialState.FAIL)
            interrupted = True
            break
        state, loss, assessment, games = played
        trial.set_user_attr("assessment", assessment)
        trial.set_user_attr("games", games)
        found.tell(trial, loss, state=state) if state.name == "COMPLETE" else found.tell(trial, state=state)
    return {"study": found, "trials": _finished(found), "interrupted": interrupted, "resumed": resumed,
            "played": run["played"]}
