"""The balance lab's commands (simulate, compare, sweep, tune) and the arena: thin
commands over lab/; numpy, scipy and matplotlib come with the lab extra, Optuna with
the tune extra, and they are imported only when these commands run."""

from __future__ import annotations

import json
import os
from typing import Annotated, List, Optional

import typer

from . import completion as complete
from .app import app
from .kit import (
    EXIT_ERRORS,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Format,
    JsonOpt,
    echo,
    fail,
    fail_rules,
    start,
)
from .options import (
    BOTS_HELP,
    EditionArg,
    LabArgs,
    LabOutOpt,
    LabReportOpt,
    LabResumeOpt,
    LabSchedulerOpt,
    LabSkillGamesOpt,
    LabSkillOpt,
    PlayersOpt,
    SeedOpt,
    VariantOpt,
    WithOpt,
    lab_options,
)
from .shared import _atomic_text, _parsed_bots, _usage

#: where `kittens --help` lists these commands
PANEL = "Balance lab"


# -- arena (issue 15: players that think) ---------------------------------------------------
@app.command(rich_help_panel=PANEL)
def arena(
    edition: Annotated[str, typer.Argument(help="An edition file or a shipped edition's name.", autocompletion=complete.editions)] = "original",
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP, autocompletion=complete.bots)] = "ismcts,heuristic,random",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games; the line-up is rotated round the table, one deal per rotation block.")] = 100,
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "--jobs", "-j", min=1, help="Processes to play on (default: one; the report is the same for any number).")] = None,
    scheduler: LabSchedulerOpt = None,
    out: LabOutOpt = None,
    resume: LabResumeOpt = False,
    report: LabReportOpt = None,
    output: Annotated[Format, typer.Option("--format", "-f", help="text (a table and the lab's report) or json.")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Bots play seat-rotated games on the balance lab's runner and are rated (openskill
    Plackett-Luce), with win rates and their 95% intervals, then the lab's report of the
    games. Ctrl-C stops with the report so far (exit 130); --out and --resume continue
    a long series."""
    from ..lab import arena as arena_tool
    from ..lab import session
    from ..lab.rulesets import parse_ruleset

    try:
        import openskill  # noqa: F401
    except ImportError:
        start("arena", output, as_json)
        fail("the arena rates bots with openskill: pip install 'kittens-engine[rl]'")

    def run(progress):
        shared = LabArgs(players=players, games=games, bots=bots, seed=seed, expansions=expansions,
                         fixed_seats=False, deal_per_rotation=True, workers=workers, scheduler=scheduler,
                         out=out, resume=resume, report=report, output=output, as_json=as_json)
        options = _lab_options(shared, progress)
        arm = parse_ruleset(edition, variant, expansions)
        compiled = session.load_ruleset(arm)
        count = session.players_for(compiled, players)
        rated = arena_tool.run_arena(arm, count, list(options.bots), games=games, seed=seed,
                                     workers=workers or 1, scheduler=scheduler, out=out, resume=resume,
                                     on_progress=progress)
        return session.Result(arena_tool.format_report(rated, compiled.name),
                              {"edition": compiled.name, **rated.to_dict()}, rated.interrupted,
                              lambda: arena_tool.report_page(rated, compiled.name))

    _lab("arena", output, as_json, report, run, scheduler)


def _lab_libraries(command: str, report: Optional[str], scheduler: Optional[str]) -> None:
    """The lab's extra libraries, checked before any game is played (the statistics come
    at the end: a missing scipy would otherwise be found after hours of games)."""
    import importlib

    needed = ["numpy", "scipy"] + (["matplotlib"] if report is not None else []) + \
        (["distributed"] if scheduler is not None else [])
    for name in needed:
        try:
            importlib.import_module(name)
        except ImportError:
            extra = "cluster" if name == "distributed" else "lab"
            fail(f"the {extra} extra is not installed ({name} is missing): "
                 f"pip install 'kittens-engine[{extra}]'", EXIT_USAGE)


def _lab(command: str, output: Format, as_json: bool, report: Optional[str], run,
         scheduler: Optional[str] = None) -> None:
    """Run a lab command: errors become exit codes (JSON errors under --format json), the
    result is printed, the HTML page written, and an interrupted run exits 130."""
    from ..interpreter.engine.game import RuleRuntimeError
    from ..interpreter.rules.load import RuleError, UsageError
    from ..lab.progress import progress_bar

    text = start(command, output, as_json) == "text"
    _lab_libraries(command, report, scheduler)
    if report is not None and (os.path.isdir(report) or not os.path.isdir(os.path.dirname(os.path.abspath(report)))):
        fail(f"cannot write the report {report}: name a file in a folder that exists")
    try:
        with progress_bar(text, command) as on_progress:
            result = run(on_progress)
    except UsageError as exc:
        fail(str(exc))
    except RuleError as exc:
        fail_rules(exc)
    except RuleRuntimeError as exc:
        fail(f"the rules broke down in play: {exc}", EXIT_ERRORS)
    except OSError as exc:
        fail(f"cannot write {exc.filename or 'the --out file'}: {exc.strerror or exc}")
    if not text:
        echo(json.dumps(result.data, default=str))
    else:
        echo(result.text, nl=False)
    if report is not None:
        with _atomic_text(report, command) as stream:
            stream.write(result.html())
        if text:
            echo(f"report written to {report}")
    if result.interrupted:
        if text:
            echo(f"kittens {command}: interrupted; the figures are those of the finished games"
                       + (" (--resume continues the --out file)" if result.data["meta"].get("out") else "")
                       + (" (the same command continues the study)" if command == "tune" else ""),
                       err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _lab_options(lab: LabArgs, progress, skill=None, skill_games=None):
    """The lab's options for a run, from what the command line said (UsageError, exit 2,
    for options that contradict each other or name no bot)."""
    from ..lab.session import Options

    if lab.resume and lab.out is None:
        raise _usage("--resume continues an --out file: give one")
    if lab.deal_per_rotation and lab.fixed_seats:
        raise _usage("--deal-per-rotation plays each deal from every turn of the line-up: "
                     "leave out --fixed-seats")
    names = _parsed_bots(lab.bots, *([skill.strip()] if skill is not None else []))
    if skill is not None and skill.strip() in names:
        raise _usage(f"--skill {skill.strip()} is one of the run's bots: name a stronger one "
                     "(the skill series seats it against the run's bots)")
    return Options(players=lab.players, games=lab.games, bots=tuple(names), seed=lab.seed,
                   rotate=not lab.fixed_seats, workers=lab.workers, scheduler=lab.scheduler, out=lab.out,
                   resume=lab.resume, progress=progress, deal_per_rotation=lab.deal_per_rotation,
                   skill=skill.strip() if skill is not None else None, skill_games=skill_games)


@app.command(rich_help_panel=PANEL)
@lab_options
def simulate(
    edition: EditionArg,
    variant: VariantOpt = None,
    skill: LabSkillOpt = None,
    skill_games: LabSkillGamesOpt = None,
    precision: Annotated[Optional[List[str]], typer.Option("--precision", help="Play in batches until this figure's 95% confidence sequence is this narrow on each side, FIGURE=HALF_WIDTH (repeat for several): turns, decisions (in turns and decisions), first_player, seats, no_winner, limits (in points), e.g. turns=0.5; --games is then the cap (docs/lab.md).")] = None,
    batch: Annotated[int, typer.Option("--batch", min=1, help="With --precision: games per batch, a look after each.")] = 200,
    *,
    lab: LabArgs,
) -> None:
    """Play many bot games on every core and sum them up with 95% confidence intervals:
    win rate by seat, seat fairness, skill, game length, eliminations, limits, cards;
    with --precision, in batches until the figures named are as precise as asked."""
    from ..lab import session
    from ..lab.rulesets import parse_ruleset

    def run(progress):
        arm = parse_ruleset(edition, variant, lab.expansions)
        options = _lab_options(lab, progress, skill, skill_games)
        if precision:
            from dataclasses import replace

            from ..lab.sequential import Plan, parse_precision
            try:
                wanted = parse_precision(precision)
            except ValueError as exc:
                raise _usage(str(exc)) from None
            options = replace(options, until_settled=Plan(batch=batch, cap=lab.games), precision=wanted)
        return session.simulate(arm, options)

    _lab("simulate", lab.output, lab.as_json, lab.report, run, lab.scheduler)


@app.command(rich_help_panel=PANEL)
@lab_options
def compare(
    rulesets: Annotated[List[str], typer.Argument(help="Two rulesets or more, the first the baseline: a file, a shipped name, RULES@VARIANT, RULES+EXPANSION (e.g. original original@older_printing).", show_default=False, autocompletion=complete.editions)],
    variant: Annotated[Optional[str], typer.Option("--variant", help="A variant for every ruleset that names none.", autocompletion=complete.variants)] = None,
    skill: LabSkillOpt = None,
    skill_games: LabSkillGamesOpt = None,
    until_settled: Annotated[bool, typer.Option("--until-settled", help="Play in batches and stop as soon as every difference of game length, win rates and bots' shares is settled (its 95% confidence sequence excludes zero, or is narrower than --margin); --games is then the cap. The intervals stay valid however early it stops (docs/lab.md).")] = False,
    batch: Annotated[int, typer.Option("--batch", min=1, help="With --until-settled: games per batch, a look after each (rounded down to whole rotations of the table).")] = 200,
    margin: Annotated[Optional[float], typer.Option("--margin", min=0, help="With --until-settled: a difference whose interval is narrower than this on each side is settled too (points of a win rate, percent of a game length); default none: only a change settles, and a rule that changes nothing plays to the cap.")] = None,
    settle: Annotated[Optional[List[str]], typer.Option("--settle", help="With --until-settled: the figures that must settle (repeat for several): turns, decisions, seats, first_player, no_winner, bots; default all.")] = None,
    *,
    lab: LabArgs,
) -> None:
    """Play the same seeds under each ruleset and say what changes against the first,
    each difference with its 95% interval and p-value; with --until-settled, in batches
    until every difference is settled."""
    from ..lab import session
    from ..lab.rulesets import parse_ruleset

    def run(progress):
        arms = [parse_ruleset(text, variant, lab.expansions) for text in rulesets]
        options = _lab_options(lab, progress, skill, skill_games)
        if until_settled:
            from dataclasses import replace

            from ..lab.sequential import GROUPS, Plan
            unknown = sorted(set(settle or ()) - set(GROUPS))
            if unknown:
                raise _usage(f"--settle {unknown[0]}: name one of {', '.join(GROUPS)}")
            options = replace(options, until_settled=Plan(batch=batch, cap=lab.games, margin=margin,
                                                          groups=tuple(settle or GROUPS)))
        elif margin is not None or settle:
            raise _usage("--margin and --settle say when a difference is settled: give --until-settled too")
        return session.compare(arms, options)

    _lab("compare", lab.output, lab.as_json, lab.report, run, lab.scheduler)


@app.command(rich_help_panel=PANEL)
@lab_options
def sweep(
    edition: EditionArg,
    set_param: Annotated[Optional[str], typer.Option("--set", help="A parameter over a range: NAME=A..B (or A..B/STEP, or v1,v2,...), e.g. hand_size=4..8.")] = None,
    count: Annotated[Optional[str], typer.Option("--count", help="A card's count over a range: CARD=A..B, e.g. nope=2..8.")] = None,
    metric: Annotated[Optional[List[str]], typer.Option("--metric", "-m", help="A figure to follow across the sweep, with its interval (repeat for several): turns, decisions, first_player, no_winner, limits, seat_spread, fairness_p, seat:N, team:N, bot:NAME, card:ID, noped:ID, drawn:ID, out:K.")] = None,
    variant: VariantOpt = None,
    *,
    lab: LabArgs,
) -> None:
    """Simulate each value of one parameter or card count (the same seeds at each) and
    show how game length, seat fairness and the first player's chances move."""
    from ..lab import session
    from ..lab.rulesets import parse_ruleset

    def run(progress):
        if (set_param is None) == (count is None):
            raise _usage("give one of --set NAME=A..B or --count CARD=A..B")
        key = "set_params" if set_param is not None else "set_counts"
        name, values = session.parse_sweep(set_param if set_param is not None else count, key)
        arm = parse_ruleset(edition, variant, lab.expansions)
        return session.sweep(arm, key, name, values, _lab_options(lab, progress), metric or ())

    _lab("sweep", lab.output, lab.as_json, lab.report, run, lab.scheduler)


# -- tune (issue 45: design to targets) ---------------------------------------------------
TUNE_VARY_HELP = ("An axis of the space (repeat for several): count.CARD=A..B (a card's count), "
                  "param.NAME=A..B, A..B/STEP or v1,v2,... (a parameter), variant=none,NAME,... (the base "
                  "with no variant, or one of its variants).")
TUNE_TARGET_HELP = ("What the game should be (repeat for several): FIGURE GOAL [weight=W], the goal a range "
                    "LO..HI, a bound >= X or <= X, ~ X (as close as possible), min or max; fairness and "
                    "first_edge alone mean as close to zero as possible. Figures: turns, decisions, fairness "
                    "(largest seat gap, points), first_edge (points), skill (best bot minus worst, points), "
                    "limits and no_winner (%), out:K (turn the K-th player goes out), card:ID, drawn:ID "
                    "(per game). E.g. \"turns 35..45\", \"fairness\", \"skill >= 10 weight=2\".")


@app.command(rich_help_panel=PANEL)
def tune(
    edition: EditionArg,
    vary: Annotated[List[str], typer.Option("--vary", "-x", help=TUNE_VARY_HELP, show_default=False)],
    target: Annotated[List[str], typer.Option("--target", "-t", help=TUNE_TARGET_HELP, show_default=False)],
    trials: Annotated[int, typer.Option("--trials", "-n", min=1, help="Points of the space to play in all, those the study already holds counted (a point suggested again is not played again and not counted; the search stops sooner when every point is played).")] = 30,
    study: Annotated[str, typer.Option("--study", help="Where the study is kept: a SQLite file (created, or continued when it holds this question: run the same command again after Ctrl-C), or an Optuna storage URL several machines share.")] = "kittens-tune.db",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per trial; every trial plays the same seeds seed..seed+games-1 with the same seats (common random numbers).")] = 1000,
    first_batch: Annotated[int, typer.Option("--first-batch", min=1, help="Games a trial plays before the pruner may stop it as clearly worse (its figures at their most favourable are worse than the median trial's).")] = 200,
    show: Annotated[int, typer.Option("--show", min=1, help="How many of the best candidates to list.")] = 5,
    out: Annotated[Optional[str], typer.Option("--out", "-o", help="Write the best point as a house rule: extends the base, sets only what was tuned, its figures in a comment (e.g. best.yaml).")] = None,
    report: LabReportOpt = None,
    players: PlayersOpt = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP + " Mixing them measures skill (the skill target needs two kinds).", autocompletion=complete.bots)] = "random",
    skill: Annotated[Optional[str], typer.Option("--skill", help="For the skill target: a stronger bot (e.g. heuristic, or ismcts:iterations=20) whose edge over the equal share, one seat of it against --bots in a series of its own on the same seeds, is the skill figure (each trial then plays twice the games). Without it, skill is the gap between the --bots.", autocompletion=complete.bots)] = None,
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    fixed_seats: Annotated[bool, typer.Option("--fixed-seats", help="Keep each bot at its seat (default: seats rotate game by game).")] = False,
    workers: Annotated[Optional[int], typer.Option("--workers", "-j", min=1, help="Processes a trial's games play on (default: every core; small batches use fewer).")] = None,
    scheduler: LabSchedulerOpt = None,
    output: Annotated[Format, typer.Option("--format", "-f", help="text for people, json for every number.")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Search card counts, parameters and variants for the house rule that meets your
    targets (game length, fairness, the first seat's edge, skill, limits...): Optuna's
    seeded TPE sampler, a pruner for clearly worse trials, a study file that resumes
    after Ctrl-C, every trial on the same seeds. Prints the best candidates with each
    target's figure and 95% interval, which target binds when none meets them all,
    and writes the best as a house rule (--out). Needs kittens-engine[tune]."""
    from ..lab import session, tune_report
    from ..lab import targets as targets_mod
    from ..lab import tune as tuning
    from ..lab.rulesets import parse_ruleset

    try:
        import optuna  # noqa: F401
    except ImportError:
        start("tune", output, as_json)
        fail("the search needs Optuna, which is not installed: pip install 'kittens-engine[tune]'",
             EXIT_USAGE)
    if out is not None and (os.path.isdir(out) or not os.path.isdir(os.path.dirname(os.path.abspath(out)))):
        start("tune", output, as_json)
        fail(f"cannot write the house rule {out}: name a file in a folder that exists")

    def run(progress):
        dims = [tuning.parse_vary(text) for text in vary]
        keys = [d.key for d in dims]
        if len(set(keys)) < len(keys):
            raise _usage(f"--vary {next(k for k in keys if keys.count(k) > 1)} is given twice")
        wanted = [targets_mod.parse_target(text) for text in target]
        base = parse_ruleset(edition, variant, expansions)
        compiled = session.load_ruleset(base)
        count = session.players_for(compiled, players)
        tuning.check_variants(dims, compiled, base)
        names = tuple(_parsed_bots(bots, *([skill.strip()] if skill else [])))
        if skill is not None and skill.strip() in names:
            raise _usage(f"--skill {skill.strip()} is one of the run's bots: name a stronger one")
        if skill is not None and not any(t.figure == "skill" for t in wanted):
            raise _usage("--skill measures the skill target: add one (e.g. --target \"skill >= 10\")")
        question = tuning.Question(base, tuple(dims), tuple(wanted), count, names, seed, games,
                                   min(first_batch, games), not fixed_seats, skill.strip() if skill else None)
        total = trials * games

        def on_progress(done):
            progress(min(done, total), total)

        result = tuning.run_study(question, trials=trials, study=study, workers=workers, scheduler=scheduler,
                                  progress=on_progress if progress is not None else None)
        best = tune_report.candidates(result["trials"], show)
        found = tune_report.limits(question, result["trials"], best)
        if out is not None and best:
            with _atomic_text(out, "tune") as stream:
                stream.write(tune_report.house_rule(question, best[0], out))
        data = tune_report.to_dict(question, result, best, found)
        data["house_rule"] = out if best else None
        data["meta"]["study"] = study
        text = tune_report.text(question, result, best, found, out if best else None)
        return session.Result(text, data, result["interrupted"],
                              lambda: tune_report.page(question, result, best, found, text))

    _lab("tune", output, as_json, report, run, scheduler)
