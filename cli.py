"""The `kittens` command line: thin typer commands over the library.

Library errors become exit statuses here, at the boundary: 0 when all is well
(warnings allowed), 1 when rule files have errors, 2 for usage problems, 3 for
an internal error (a bug in kittens; reported without a traceback), 130 when
stopped by Ctrl-C. Every command takes ``--format`` (``--json`` is short for
``--format json``), and with JSON every output parses, errors included: see
clikit.py, which holds these conventions.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import tempfile
from enum import Enum
from typing import Annotated, List, Optional

import typer

from .commands import completion as complete
from .about import DISTRIBUTION, __version__, core_fallback, core_warning, display_path, engine_core
from .commands.kit import (  # noqa: F401
    EXIT_ERRORS,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    STATE,
    Format,
    FormatOpt,
    JsonOpt,
    SheetFormat,
    ValidateFormat,
    echo,
    emit,
    fail,
    fail_rules,
    shown,
    start,
)

app = typer.Typer(
    name="kittens",
    help="A rules-as-data engine for Exploding Kittens: editions, cards and combos written in YAML.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # help is Markdown: `code` shows as code, and brackets stay text (rich markup ate the
    # "[lsp]" of "pip install 'kittens-engine[lsp]'")
    rich_markup_mode="markdown",
)

def _version(value: bool) -> None:
    if value:
        import platform

        fallback = core_fallback()
        echo(f"kittens {__version__} ({DISTRIBUTION}, Python {platform.python_version()}, "
             f"{engine_core()} engine core{': the install could not compile it' if fallback else ''})")
        raise typer.Exit()


#: whether this process has said that the compiled core is missing (it says it once)
_CORE_TOLD = []


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version, with the distribution, the Python "
                                          "and the engine core in use, and exit.")] = False,
) -> None:
    """Exploding Kittens editions, cards and combos written as data."""
    if not _CORE_TOLD:
        _CORE_TOLD.append(True)
        warning = core_warning()
        if warning:  # on stderr: standard output stays what the command prints (JSON included)
            typer.echo(warning, err=True)


@app.command()
def validate(
    paths: Annotated[List[str], typer.Argument(help="Rule files or folders (searched for *.yaml; "
                                               "build/, virtual environments, hidden folders and what "
                                               ".gitignore names are skipped).", show_default=False)],
    output: Annotated[ValidateFormat, typer.Option(
        "--format", "-f", help="text for people, json for tools, github for GitHub Actions "
        "annotations, sarif for code scanning.")] = ValidateFormat.text,
    as_json: JsonOpt = False,
    allow_outside: Annotated[bool, typer.Option(
        "--allow-outside", help="Follow references (include, uses, extends, apply, base, edition) "
        "outside the rule folders: the project of each file named, the kittens package, installed "
        "expansions. The same as KITTENS_ALLOW_OUTSIDE=1.")] = False,
) -> None:
    """Check rule files: YAML, schema, effects, and the rules a schema cannot express."""
    from .interpreter.lang.diagnostics import printable, render_json
    from .interpreter.rules.load import UsageError
    from .interpreter.rules.check import validate_paths

    fmt = start("validate", output, as_json)
    try:
        report = validate_paths(paths, allow_outside=allow_outside or None)
    except UsageError as exc:
        fail(str(exc))
    diagnostics = [shown(d) for d in report.diagnostics]
    files = [display_path(f) for f in report.files]
    if fmt == "json":
        echo(render_json(diagnostics, files))
    elif fmt in ("github", "sarif"):
        from .interpreter.lang.annotations import for_ci, render_github, render_sarif

        found = for_ci(report)  # a finding in a shipped file is told on the file that caused it
        if fmt == "github":
            echo(render_github([shown(d) for d in found]), nl=False)
        else:  # SARIF wants URIs: paths as given or relative, never `<kittens>/...`
            raw = [os.path.relpath(f) if os.path.isabs(f) and not os.path.relpath(f).startswith("..")
                   else f for f in report.files]
            echo(render_sarif(found, raw, __version__))
    else:
        from .interpreter.lang.annotations import render_moved, told_on_cause

        color = sys.stdout.isatty()
        # a finding in a shipped file that a checked file led to is told on that file's line
        # (`extends: original`), then where it happens: the user wrote the one, not the other
        for diagnostic, found in told_on_cause(report):
            if found is None:
                text = shown(diagnostic).render()
            else:  # the place is said on a line of its own, not in the message
                text = shown(dataclasses.replace(diagnostic, message=found.message)).render()
                text += "\n" + render_moved(found)
            if color:  # made safe first: the colour's own escapes must reach the terminal
                word, text = diagnostic.severity, printable(text)
                text = text.replace(f" {word}: ", " " + typer.style(
                    f"{word}:", fg="red" if diagnostic.is_error else "yellow", bold=True) + " ", 1)
                typer.echo(text)
            else:
                echo(text)
        count = len(files)
        echo(f"checked {count} file{'s' if count != 1 else ''}: "
                   f"{report.errors} error{'s' if report.errors != 1 else ''}, "
                   f"{report.warnings} warning{'s' if report.warnings != 1 else ''}")
    raise typer.Exit(EXIT_ERRORS if report.errors else EXIT_OK)


def _load_edition(path: str, variant: str | None, command: str, expansions=None):
    """Compile an edition for play; rule errors print as diagnostics and exit 1, a name
    or path that names nothing exits 2. ``path`` takes every form a ruleset has on the
    command line, as `compare` takes them: a file, a shipped name, RULES+EXPANSION,
    RULES@VARIANT."""
    from .interpreter.rules.load import RuleError, UsageError, load_edition
    from .lab.rulesets import parse_ruleset

    try:
        ruleset = parse_ruleset(path, variant, expansions)
        return load_edition(ruleset.rules, ruleset.variant, ruleset.expansions)
    except UsageError as exc:
        fail(str(exc))
    except RuleError as exc:  # an unknown variant is a UsageError too, caught above
        fail_rules(exc)


def _players_for(edition, players: int | None, command: str) -> int:
    lo, hi = edition.players
    if players is None:
        return min(max(4, lo), hi)
    if not lo <= players <= hi:
        fail(f"{edition.name} is for {lo} to {hi} players, not {players}")
    _warn_dead_cards(edition, players, command)
    return players


def _warn_dead_cards(edition, players: int, command: str) -> None:
    """Say so when a card is dealt but useless at this player count, and name the variant
    made for it (Imploding Kittens with two players and no kitten left to defuse)."""
    from .interpreter.rules.edition import variant_for
    from .interpreter.rules.setup import dead_cards

    dead = dead_cards(edition, players)
    if not dead:
        return
    card_id, users = next(iter(dead.items()))
    better = variant_for(edition, edition.variants, players)
    hint = f": play it with --variant {better}" if better else ""
    echo(f"kittens {command}: warning: with {players} players '{card_id}' does nothing, since "
               f"no card that uses it ({', '.join(users)}) reaches the game{hint}", err=True)


def _parsed_bots(bots: str, *more: str) -> list[str]:
    """Bot specs by seat (engine/players.py: ``heuristic``, ``ismcts:iterations=800``,
    ``package.module:Class``), and ``more`` specs, each made once now so that a name or a
    setting that names no bot is refused before any game: UsageError (exit 2)."""
    from .interpreter.engine.players import BotSpecError, make_player, parse_spec
    from .interpreter.rules.load import UsageError

    names = [name.strip() for name in bots.split(",") if name.strip()]
    for name in (names or [""]) + list(more):
        try:
            make_player(parse_spec(name), 0, 0)  # settings out of range are said now, too
        except BotSpecError as exc:
            raise UsageError(str(exc)) from None
    return names


def _bot_names(bots: str, command: str) -> list[str]:
    """:func:`_parsed_bots` for a command that plays them: a bad one exits 2."""
    from .interpreter.rules.load import UsageError

    try:
        return _parsed_bots(bots)
    except UsageError as exc:
        fail(str(exc))


BOTS_HELP = ("Bots by seat, comma-separated, repeated to fill the table: random, heuristic, ismcts "
             "(settings as ismcts:iterations=800), or package.module:Class for your own.")


EditionArg = Annotated[str, typer.Argument(help="An edition file (e.g. editions/original.yaml), or a shipped edition's name (original).",
                                           show_default=False, autocompletion=complete.editions)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", min=1,
                                                   help="Number of seats (default: 4, within the edition's range).")]
VariantOpt = Annotated[Optional[str], typer.Option("--variant", help="Play one of the edition's variants.",
                                                   autocompletion=complete.variants)]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Seed for all chance; the same seed replays the same game.")]
WithOpt = Annotated[Optional[List[str]], typer.Option("--with", "-w", help="Apply an expansion to the edition: a file, a folder holding expansion.yaml, or an installed expansion's name (repeat for several, applied in order).",
                                                      autocompletion=complete.expansions)]


@app.command()
def run(
    edition: EditionArg,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games; game i uses seed+i.")] = 1,
    bots: Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP, autocompletion=complete.bots)] = "random",
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    log: Annotated[Optional[str], typer.Option("--log", help="Write every event of every game to this file, as JSON lines, each game as it ends.")] = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the summary as one JSON object.")] = False,
    each: Annotated[Optional[bool], typer.Option("--each/--no-each", help="A line per game with its winner (default: only for up to 20 games).")] = None,
) -> None:
    """Play bot-only games and print who won each and a summary. Ctrl-C stops after the
    finished games, with their summary (exit 130)."""
    from .interpreter.engine.game import Game, RuleRuntimeError
    from .interpreter.engine.simulate import run_games
    from .adapters.replay import header_fields

    as_json = start("run", output, as_json) == "json"
    compiled = _load_edition(edition, variant, "run", expansions)
    count = _players_for(compiled, players, "run")
    names = _bot_names(bots, "run")
    seats = [names[seat % len(names)] for seat in range(count)]
    game = Game(compiled, count)
    show_each = not as_json and (each or (each is None and games <= 20))

    def print_game(game_seed, state):
        winner = state.winner
        who = "nobody (turn limit)" if winner is None else f"seat {winner} ({seats[winner]})"
        echo(f"seed {game_seed}: {who} wins after {state.table.turn} turns")

    stream = _open_log(log, "run")
    with stream or contextlib.nullcontext():
        try:
            summary = run_games(game, games=games, seed=seed, bots=names, log=stream,
                                header=header_fields(edition, expansions or ()) if log else None,
                                keep_results=False, on_game=print_game if show_each else None)
        except (RuleRuntimeError, OSError) as exc:
            kept = (f"; {log} holds the {stream.games} game(s) finished before"
                    if stream is not None and stream.games else "")
            if isinstance(exc, OSError):  # the log: a full disk, a file system gone
                fail(f"cannot write the log {log}: {exc.strerror or exc}{kept}", EXIT_USAGE)
            seed_of = getattr(exc, "seed", None)
            broke = "" if seed_of is None else (
                f"; it broke in the game of seed {seed_of} (`--seed {seed_of} --games 1` plays it again)")
            fail(f"the rules broke down in play: {exc}{broke}{kept}", EXIT_ERRORS)
    if as_json:
        echo(json.dumps(summary.to_dict(count, seats, seed)))
    else:
        _print_summary(summary, compiled.name, seats)
        if log and summary.games:
            echo(f"log written to {log}")
    if summary.interrupted:
        echo(f"kittens run: interrupted after {summary.games} finished game(s)"
                   + (f"; {log} holds them" if log and summary.games else ""), err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _print_summary(summary, name: str, seats: list[str]) -> None:
    count, games = len(seats), summary.games
    echo(f"{games} game{'s' if games != 1 else ''} of {name}, "
               f"{count} players, bots {', '.join(seats)}")
    if not games:
        return
    for seat in range(count):
        wins = summary.wins.get(seat, 0)
        echo(f"  seat {seat} ({seats[seat]}): {wins} win{'s' if wins != 1 else ''} "
                   f"({100 * wins / games:.1f}%)")
    if len(set(seats)) > 1:
        for bot, wins in summary.wins_by_bot(seats).items():
            share = seats.count(bot)
            echo(f"  all {bot} bots ({share} seat{'s' if share != 1 else ''}): {wins} wins "
                       f"({100 * wins / games:.1f}%)")
    if summary.no_winner:
        echo(f"  no winner (turn limit): {summary.no_winner}")
    speed = f"; {games / summary.seconds:.0f} games/s" if summary.seconds else ""
    echo(f"  mean turns per game: {summary.turns / games:.1f}{speed}")


def _open_log(path: str | None, command: str):
    """The log file a command writes games to, checked before any game is played:
    a place that cannot hold it is a usage error."""
    from .interpreter.engine.simulate import LogFile

    if path is None:
        return None
    try:
        return LogFile(path)
    except (OSError, ValueError) as exc:
        fail(f"cannot write the log {path}: {getattr(exc, 'strerror', None) or exc}")


@app.command()
def replay(
    log: Annotated[str, typer.Argument(help="A log written by `kittens run --log` or `kittens play --log`.", show_default=False)],
    rules: Annotated[Optional[str], typer.Option("--rules", help="The edition file to replay with instead of the one the log names (when it has moved): a file, or a shipped edition's name.", autocompletion=complete.editions)] = None,
    expansions: Annotated[Optional[List[str]], typer.Option("--with", "-w", help="The expansions to replay with instead of those the log names (give them all, in order).", autocompletion=complete.expansions)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Replay each logged game from its seed and decisions, and check every event matches.

    Exit 1 if a game differs or is incomplete (the log stops before its end)."""
    from .interpreter.rules.load import RuleError
    from .adapters.replay import LogError, replay_log

    as_json = start("replay", output, as_json) == "json"
    verified = incomplete = total = 0
    results = []
    say = (lambda line: None) if as_json else echo
    try:
        for result in replay_log(log, rules=rules, expansions=expansions):
            total += 1
            seed = result.header.get("seed")
            label = f"game {result.game}" + (f" (seed {seed})" if isinstance(seed, int) else "")
            entry = {"game": result.game, "seed": seed if isinstance(seed, int) else None}
            if result.mismatch is not None:
                entry.update(status="mismatch", detail=str(result.mismatch))
                say(f"{label}: MISMATCH: {result.mismatch}")
            elif result.incomplete is not None:
                incomplete += 1
                entry.update(status="incomplete", detail=str(result.incomplete))
                say(f"{label}: INCOMPLETE: {result.incomplete}")
            else:
                verified += 1
                entry.update(status="verified", events=result.events, winner=result.winner)
                who = "no winner" if result.winner is None else f"seat {result.winner} wins"
                say(f"{label}: verified {result.events} events; {who}")
            results.append(entry)
    except LogError as exc:
        fail(str(exc))
    except RuleError as exc:
        fail_rules(exc)
    except KeyboardInterrupt:
        stopped = True
    else:
        stopped = False
    if as_json:
        emit({"games": total, "verified": verified, "incomplete": incomplete,
              "interrupted": stopped, "results": results})
    else:
        echo(f"{verified} of {total} game(s) replayed identically"
                   + (f"; {incomplete} incomplete" if incomplete else ""))
    if stopped:
        echo(f"kittens replay: interrupted after {total} game(s)", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(EXIT_ERRORS if verified < total else EXIT_OK)


@app.command()
def play(
    edition: EditionArg,
    players: PlayersOpt = None,
    seat: Annotated[Optional[List[int]], typer.Option("--seat", "-k", help="A seat played by a person (repeat for hot-seat play; default: seat 0).")] = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots for the other seats, comma-separated: random, heuristic, ismcts (settings as ismcts:iterations=800), or package.module:Class for your own.", autocompletion=complete.bots)] = "heuristic",
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed for all chance (default: a new one each game).")] = None,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    log: Annotated[Optional[str], typer.Option("--log", help="Write the game's events to this file (JSON lines) when it ends or you stop.")] = None,
    output: Annotated[Format, typer.Option("--format", "-f", help="text; or json: the table goes to standard error and the outcome is printed as one JSON object at the end.")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Play in the terminal against bots; several people can play hot-seat.

    At a prompt, `?` shows the text of the cards in your hand, `? N` the text of
    option N's card, and `q` stops. Ctrl-C stops too (exit 130)."""
    import random

    from .interpreter.engine.events import dumps
    from .interpreter.engine.game import Game, RuleRuntimeError
    from .interpreter.engine.players import make_bots
    from .interpreter.engine.simulate import game_header
    from .adapters.replay import header_fields
    from .adapters.terminal import HumanTable, Quit, Terminal

    as_json = start("play", output, as_json) == "json"
    compiled = _load_edition(edition, variant, "play", expansions)
    count = _players_for(compiled, players, "play")
    humans = sorted(set(seat or [0]))
    bad = [k for k in humans if not 0 <= k < count]
    if bad:
        fail(f"there is no seat {bad[0]} in a {count}-player game (seats count from 0)")
    names = _bot_names(bots, "play")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = Game(compiled, count)
    all_bots = make_bots(names, count, seed)
    seat_bots = {k: all_bots[k] for k in range(count) if k not in humans}
    for k, bot in seat_bots.items():
        start_bot = getattr(bot, "start", None)
        if start_bot:
            start_bot(game, k)
    stream = _open_log(log, "play")  # before the game: a bad place is said at once
    state = game.new_state(seed)
    write = (lambda text: echo(text, err=True)) if as_json else echo

    def write_log():  # the game as far as it went: a stopped game replays as incomplete
        labels = ["person" if k in humans else seat_bots[k].name for k in range(count)]
        lines = [dumps(game_header(game, seed, labels, **header_fields(edition, expansions or ())))]
        stream.write("\n".join(lines + [dumps(event) for event in state.events]) + "\n")

    stopped = False
    with stream or contextlib.nullcontext():
        write(f"{compiled.name}: {count} players, seed {seed}. You are seat "
              f"{', '.join(map(str, humans))}; bots: " +
              ", ".join(f"seat {k} {b.name}" for k, b in seat_bots.items()))
        table = HumanTable(state, humans, seat_bots, Terminal(read=_prompt, write=write))
        try:
            table.play()
        except Quit:
            stopped = True
            write(f"Stopped. Play this game again with --seed {seed}.")
        except KeyboardInterrupt:
            if stream is not None:
                write_log()
            write(f"\nStopped. Play this game again with --seed {seed}.")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except RuleRuntimeError as exc:
            fail(f"the rules broke down in play: {exc}", EXIT_ERRORS)
        if stream is not None:
            write_log()
    if as_json:
        emit({"edition": compiled.id, "players": count, "seed": seed, "humans": humans,
              "stopped": stopped, "finished": state.is_terminal(), "winner": state.winner,
              "winners": list(state.winners), "turns": state.table.turn})


def _prompt(text: str) -> str:
    """One line from the person at the terminal; end of input reads as EOFError and
    Ctrl-C as KeyboardInterrupt (input() keeps them apart, click's prompt does not).
    With --format json the prompt goes to standard error, beside the table."""
    if STATE.json:
        sys.stderr.write(text + " ")
        sys.stderr.flush()
        return input()
    return input(text + " ")


@app.command()
def bench(
    edition: Annotated[str, typer.Argument(help="The edition to time.", autocompletion=complete.editions)] = "",
    players: Annotated[int, typer.Option("--players", "-p", min=1, help="Seats per game.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per round.")] = 2000,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds; the best is reported.")] = 3,
    events: Annotated[bool, typer.Option("--events/--no-events", help="Also record every event (as --log does).")] = False,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the figures as one JSON object.")] = False,
) -> None:
    """Time random-bot games on one core: games and decisions per second."""
    import platform

    from .about import EDITIONS_DIR
    from .interpreter.engine.game import RuleRuntimeError
    from .interpreter.engine.simulate import benchmark

    as_json = start("bench", output, as_json) == "json"
    path = edition or str(EDITIONS_DIR / "original.yaml")
    compiled = _load_edition(path, variant, "bench", expansions)
    count = _players_for(compiled, players, "bench")
    try:
        figures = benchmark(compiled, players=count, games=games, rounds=rounds, record=events)
    except RuleRuntimeError as exc:
        fail(f"the rules broke down in play: {exc}", EXIT_ERRORS)
    figures["edition"] = compiled.id
    figures["python"] = platform.python_version()
    figures["core"] = engine_core()
    if as_json:
        echo(json.dumps(figures))
        return
    echo(f"{compiled.name}, {count} random bots, {games} games x {rounds} rounds (best), "
               f"events {'on' if events else 'off'}, Python {figures['python']}, one core, "
               f"{figures['core']} engine core")
    echo(f"  {figures['games_per_second']:,.0f} games/s")
    echo(f"  {figures['decisions_per_second']:,} decisions/s "
               f"({figures['decisions_per_game']} decisions per game)")
    if figures["core"] == "python":
        echo("  (the engine runs as Python source here; `pip install .` with a C compiler "
                   "builds a compiled core that plays more than twice as fast)")


def _shipped_name(path) -> str | None:
    """The name a shipped edition or expansion is used by (`original`), or None."""
    from .about import EDITIONS_DIR

    if not isinstance(path, str):
        return None
    real = os.path.realpath(path)
    if os.path.dirname(real) == os.path.realpath(EDITIONS_DIR) and real.endswith(".yaml"):
        return os.path.basename(real)[:-5]
    return None


def _for_display(entry: dict) -> dict:
    """A catalog entry with its paths as a person reads them, shipped files by name."""
    entry = dict(entry)
    name = _shipped_name(entry.get("path"))
    if name is not None:
        entry["shipped"] = name
    for key in ("path", "extends", "base"):
        value = entry.get(key)
        if isinstance(value, str):
            entry[key] = _shipped_name(value) or display_path(os.path.abspath(value))
    return entry


# -- arena (issue 15: players that think) ---------------------------------------------------
@app.command()
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
    from .lab import arena as arena_tool
    from .lab import session

    try:
        import openskill  # noqa: F401
    except ImportError:
        start("arena", output, as_json)
        fail("the arena rates bots with openskill: pip install 'kittens-engine[rl]'")

    def run(progress):
        options = _lab_options("arena", players, games, bots, seed, False, workers, scheduler, out, resume,
                               progress, deal_per_rotation=True)
        arm = session.Ruleset(edition, variant, tuple(expansions or ()))
        compiled = session.load_ruleset(arm)
        count = session.players_for(compiled, players)
        rated = arena_tool.run_arena(arm, count, list(options.bots), games=games, seed=seed,
                                     workers=workers or 1, scheduler=scheduler, out=out, resume=resume,
                                     on_progress=progress)
        return session.Result(arena_tool.format_report(rated, compiled.name),
                              {"edition": compiled.name, **rated.to_dict()}, rated.interrupted,
                              lambda: arena_tool.report_page(rated, compiled.name))

    _lab("arena", output, as_json, report, run, scheduler)
# -- end of arena --------------------------------------------------------------------------


@app.command("list")
def list_editions(
    paths: Annotated[Optional[List[str]], typer.Argument(help="Folders or files to look in (default: the editions that come with kittens).", show_default=False)] = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: a JSON list of objects: name, kind, path, players, ...")] = False,
) -> None:
    """List the editions, expansions and variants you can play, with their player ranges.

    Without PATHS: the editions that come with kittens (shown by the name you use
    them by), and the expansions installed Python packages declare (entry point
    group `kittens.expansions`)."""
    from .interpreter.rules.catalog import catalog, installed_catalog, shipped_editions
    from .interpreter.rules.load import UsageError

    as_json = start("list", output, as_json) == "json"
    try:
        entries = catalog(paths or [shipped_editions()]) + (installed_catalog() if not paths else [])
    except UsageError as exc:
        fail(str(exc))
    entries = [_for_display(entry) for entry in entries]
    if as_json:
        echo(json.dumps(entries, indent=2))
        return
    for entry in entries:
        lo, hi = entry["players"] or (0, 0)
        players = "has errors (run kittens validate)" if entry.get("errors") else \
            f"{lo} players" if lo == hi else f"{lo}-{hi} players"
        indent = "    " if entry["kind"] == "variant" else ""
        if entry.get("extends"):
            players += f", extends {entry['extends']}"
        for count, name in entry.get("advice", {}).items():
            players += f"; with {count} players play --variant {name}"
        label = f"--variant {entry['variant']}" if entry["kind"] == "variant" else entry["path"]
        if entry.get("installed") and entry["kind"] != "variant":
            label = f"--with {entry.get('name_to_use', entry['id'])}  ({entry['installed']})"
            if entry.get("problem"):
                label = f"({entry['installed']}: {entry['problem']})"
        echo(f"{indent}{entry['name']}  [{entry['kind']}, {players}]  {label}")


@app.command()
def show(
    edition: EditionArg,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    output: Annotated[Format, typer.Option("--format", "-f", help="text: YAML with each value's origin; json for tools.")] = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the resolved edition and the origin of each value.")] = False,
) -> None:
    """Print the resolved edition as YAML, each value with the file and line that set it."""
    from .interpreter.words.resolved import as_data, render_show

    as_json = start("show", output, as_json) == "json"
    compiled = _load_edition(edition, variant, "show", expansions)
    if as_json:
        origins = {key: (_origin_text(origin) if origin else None)
                   for key, origin in compiled.origins.items()}
        origins.update({f"cards.{card_id}": [_origin_text(card.origin), *map(_origin_text, card.changed_at)]
                        for card_id, card in compiled.cards.items()})
        echo(json.dumps({"edition": as_data(compiled),
                               "sources": [display_path(str(s)) for s in compiled.sources],
                               "origins": origins}, indent=2))
        return
    echo(_shipped_paths(render_show(compiled)), nl=False)


def _origin_text(origin) -> str:
    """An origin (`path:line`) with a shipped file shown by name."""
    return _shipped_paths(str(origin))


def _shipped_paths(text: str) -> str:
    """``text`` with the package folder's absolute path written as ``<kittens>``."""
    from .about import PACKAGE_DIR

    return text.replace(str(PACKAGE_DIR) + os.sep, "<kittens>/") if os.path.realpath(os.getcwd()) \
        != str(PACKAGE_DIR) else text.replace(str(PACKAGE_DIR) + os.sep, "")


@app.command()
def diff(
    first: Annotated[str, typer.Argument(help="The ruleset to compare against (an edition file).", show_default=False, autocompletion=complete.editions)],
    second: Annotated[str, typer.Argument(help="The ruleset whose changes are shown (e.g. a house rule).", show_default=False, autocompletion=complete.editions)],
    variant: Annotated[Optional[str], typer.Option("--variant", help="Compare against this variant of the SECOND file.", autocompletion=complete.variants)] = None,
    expansions: WithOpt = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the changes as a JSON list.")] = False,
) -> None:
    """Show what the second ruleset changes against the first: deck, cards, combos, parameters, setup."""
    from .interpreter.words.resolved import diff as compare
    from .interpreter.words.resolved import render_diff

    as_json = start("diff", output, as_json) == "json"
    before = _load_edition(first, None, "diff")
    after = _load_edition(second, variant, "diff", expansions)
    changes = compare(before, after)
    if as_json:
        echo(_shipped_paths(json.dumps([change.to_dict() for change in changes], indent=2,
                                             default=str)))
        return
    echo(_shipped_paths(render_diff(changes, before, after)), nl=False)


@app.command()
def rules(
    edition: EditionArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    output_format: Annotated[SheetFormat, typer.Option("--format", "-f", help="markdown (or text, the same), html (prints on A4), or json (the sheet's sections as data).")] = SheetFormat.markdown,
    as_json: JsonOpt = False,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write the rulesheet to this file instead of printing it.")] = None,
) -> None:
    """Write a rulesheet that teaches the game: how to play, setup, every card in plain
    words, the variants, and what a house rule changes."""
    from .interpreter.words.resolved import against_base
    from .interpreter.words.rulesheet import render_rulesheet

    fmt = start("rules", output_format, as_json)
    fmt = "markdown" if fmt == "text" else fmt
    whole = _load_edition(edition, None, "rules", expansions)
    compiled = _load_edition(edition, variant, "rules", expansions) if variant else whole
    count = _players_for(compiled, players, "rules")
    base, changes = against_base(compiled, whole, lambda path: _load_edition(path, None, "rules"))
    sheet = render_rulesheet(compiled, count, fmt, base=base, changes=changes)
    if output is None:
        echo(sheet, nl=False)
        return
    with _atomic_text(output, "rules") as stream:
        stream.write(sheet)
    if fmt == "json":
        emit({"written": output})
    else:
        echo(f"rulesheet written to {output}")


class Paper(str, Enum):
    """`kittens print`: the sheet the cards are laid out on."""

    a4 = "a4"
    letter = "letter"


@app.command("print")
def print_cards(
    edition: EditionArg,
    output: Annotated[str, typer.Option("--output", "-o", help="The PDF file to write (replaced whole, or left as it was on an error).", show_default=False)],
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    every: Annotated[bool, typer.Option("--all", help="Every card of the edition, not only those a house rule or expansion adds or changes.")] = False,
    one_each: Annotated[bool, typer.Option("--one-each", help="A proof sheet: one copy of each card instead of the deck's counts.")] = False,
    paper: Annotated[Paper, typer.Option("--paper", help="a4 or letter: nine poker-size cards fit either.")] = Paper.a4,
    out_format: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Write a PDF to print and play: a page or two of rules, then the cards a house rule
    or expansion adds or changes (every card with `--all`), nine to a sheet, with crop
    marks and their backs for double-sided printing (needs `pip install 'kittens-engine[print]'`)."""
    from .interpreter.words.resolved import against_base

    as_json = start("print", out_format, as_json) == "json"
    try:
        from .authoring.printing import PrintError, choose_cards, render_pdf
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("fpdf", "fontTools"):
            raise
        fail(f"kittens print needs the print extra ({exc.name} is missing): pip install 'kittens-engine[print]'")
    whole = _load_edition(edition, None, "print", expansions)
    compiled = _load_edition(edition, variant, "print", expansions) if variant else whole
    count = _players_for(compiled, players, "print")
    base, changes = against_base(compiled, whole, lambda path: _load_edition(path, None, "print"))
    entries = choose_cards(compiled, count, base, changes, every=every, one_each=one_each)
    if not entries:
        fail(f"{compiled.name} adds or changes no card for {count} players: print every card with --all")
    try:
        printout = render_pdf(compiled, count, entries, paper.value, base, changes, source=edition)
    except PrintError as exc:
        fail(_shipped_paths(str(exc)), EXIT_ERRORS)
    with _atomic_text(output, "print", binary=True) as stream:
        stream.write(printout.pdf)
    short = [{"card": e.card_id, "printed": e.copies, "wanted": e.wanted} for e in printout.short]
    for item in short:  # the sheet cap cut the deck: say what is missing
        echo(f"kittens print: warning: {item['printed']} of {item['wanted']} copies of "
                   f"'{item['card']}' printed (at most {printout.cards} cards in one PDF)", err=True)
    if as_json:
        emit({"written": output, "pages": printout.pages, "cards": printout.cards, "short": short})
    else:
        echo(f"{printout.cards} cards on {printout.pages} pages written to {output}")


new_app = typer.Typer(help="Write starter files: a house rule or an expansion, with a scenario.",
                      no_args_is_help=True, rich_markup_mode="markdown")
app.add_typer(new_app, name="new")


def _scaffold(make, *args) -> None:
    from .interpreter.rules.load import RuleError
    from .authoring.scaffold import ScaffoldError

    try:
        written = make(*args)
    except ScaffoldError as exc:
        fail(str(exc))
    except RuleError as exc:
        fail_rules(exc)
    if STATE.json:
        emit({"written": [{"path": item.path, "what": item.what} for item in written]})
        return
    for item in written:
        echo(f"wrote {item.path} ({item.what})")


@new_app.command("house-rule")
def new_house_rule(
    name: Annotated[str, typer.Argument(help="The house rule's name, e.g. 'Two Defuses'.", show_default=False)],
    base: Annotated[str, typer.Option("--from", help="The edition it changes: a file, or a shipped edition's name.", autocompletion=complete.editions)] = "original",
    folder: Annotated[str, typer.Option("--dir", "-d", help="Where to write the files.")] = ".",
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """A house rule that extends an edition (NAME.yaml), a scenario beside it, and the
    schemas its modelines point to (in schema/ beside them, refreshed by `kittens schema --write schema`)."""
    from .authoring.scaffold import house_rule

    start("new", output, as_json)
    _scaffold(house_rule, name, base, folder)


@new_app.command("expansion")
def new_expansion(
    name: Annotated[str, typer.Argument(help="The expansion's name.", show_default=False)],
    base: Annotated[str, typer.Option("--base", help="The edition it is played with by default.", autocompletion=complete.editions)] = "original",
    folder: Annotated[str, typer.Option("--dir", "-d", help="Where to make the expansion's folder.")] = ".",
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """An expansion, ready to publish as a Python package: pyproject.toml with its entry
    point, and the package folder with expansion.yaml, a card library and a scenario."""
    from .authoring.scaffold import expansion

    start("new", output, as_json)
    _scaffold(expansion, name, base, folder)


@app.command("test")
def test_scenarios(
    paths: Annotated[List[str], typer.Argument(help="Scenario files or folders (searched for *.yaml).",
                                               show_default=False)],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every scenario, not only failures.")] = False,
    keyword: Annotated[Optional[str], typer.Option("-k", help="Run only scenarios whose file name or description contains this text (case-insensitive; `not WORD` excludes).")] = None,
    exitfirst: Annotated[bool, typer.Option("--exitfirst", "-x", help="Stop at the first failing scenario.")] = False,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Run scenario files (rule tests) and say which pass."""
    from .interpreter.rules.load import UsageError
    from .authoring.scenario import ScenarioRunner, matches_keyword
    from .interpreter.rules.check import scenario_files

    as_json = start("test", output, as_json) == "json"
    try:
        files = scenario_files(paths)
    except UsageError as exc:
        fail(str(exc))
    runner = ScenarioRunner()
    outcomes = []
    for path in files:
        if keyword and not matches_keyword(keyword, path, runner.description(path)):
            continue
        outcome = runner.run(path)
        outcomes.append(outcome)
        shown_path = display_path(path)
        if not as_json and outcome.passed and verbose:
            echo(f"PASS {shown_path}")
        elif not as_json and not outcome.passed:
            echo(f"FAIL {shown_path}" + (f": {outcome.description}" if outcome.description else ""))
            echo(outcome.message)
        if exitfirst and not outcome.passed:
            break
    failed = sum(not o.passed for o in outcomes)
    passed = len(outcomes) - failed
    if as_json:
        echo(json.dumps({"passed": passed, "failed": failed, "results": [
            {"path": o.path, "description": o.description, "passed": o.passed, "failures": o.failures}
            for o in outcomes]}))
    else:
        echo(f"{passed} passed, {failed} failed")
    raise typer.Exit(EXIT_ERRORS if failed else EXIT_OK)


# -- the designer's toolchain (issue 13): docs, schemas, the language server ----------
@app.command()
def docs(
    topic: Annotated[Optional[str], typer.Argument(help="A topic (effects, format, scenarios, ...); without one, the list of topics.", show_default=False, autocompletion=complete.topics)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Read the guides installed with kittens: `kittens docs` lists the topics,
    `kittens docs effects` shows one in the terminal."""
    from .authoring.topics import NoTopic, plain, read, title, topics

    as_json = start("docs", output, as_json) == "json"
    if topic is None:
        found = topics()
        if as_json:
            emit({"topics": [{"topic": name, "title": text} for name, text in found.items()]})
            return
        width = max(map(len, found))
        for name, text in found.items():
            echo(f"{name.ljust(width)}  {text}")
        echo("\nRead one with: kittens docs TOPIC")
        return
    try:
        text = read(topic)
    except NoTopic as exc:
        fail(str(exc))
    if as_json:
        emit({"topic": topic, "title": title(text), "markdown": text})
        return
    if sys.stdout.isatty():
        try:
            from rich.console import Console
            from rich.markdown import Markdown
        except ImportError:
            pass
        else:
            Console().print(Markdown(plain(text)))
            return
    echo(plain(text), nl=False)


@app.command()
def schema(
    write: Annotated[Optional[str], typer.Option("--write", help="Copy every schema into the folder DIR (made if needed), replacing older copies; `kittens new` puts them in schema/ beside its files, so `--write schema` there refreshes them.", show_default=False, metavar="DIR")] = None,
    kind: Annotated[Optional[str], typer.Argument(help="Print one kind's schema: cards, combos, edition, expansion or scenario.", show_default=False, autocompletion=complete.schema_kinds)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """The JSON Schemas of the rule files: list them, print one, or write them into a
    folder so editors find them however kittens is installed."""
    from .authoring.schemas_out import SchemaError, schema_text, schemas, write_schemas

    as_json = start("schema", output, as_json) == "json"
    try:
        if write is not None:
            written = write_schemas(write)
            if as_json:
                emit({"written": written})
            else:
                for path in written:
                    echo(f"wrote {path}")
            return
        if kind is not None:
            echo(schema_text(kind), nl=False)
            return
    except SchemaError as exc:
        fail(str(exc))
    found = schemas()
    if as_json:
        emit({"schemas": found})
        return
    for item in found:
        echo(f"{item['kind']:<10} {item['id']}")


@app.command()
def lsp(
    stdio: Annotated[bool, typer.Option("--stdio", help="Speak over standard input and output (the default; editors often pass it).")] = True,
    output: Annotated[Format, typer.Option("--format", "-f", help="How an error starting the server is said (the server itself speaks LSP).")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Run the kittens language server over stdio: the validator's diagnostics as you
    type, completion, hover and go-to-definition (needs `pip install 'kittens-engine[lsp]'`)."""
    start("lsp", output, as_json)
    try:
        from .lsp.server import serve
    except ImportError as exc:
        fail(f"the language server needs pygls: pip install 'kittens-engine[lsp]' ({exc})")
    serve()


# -- the balance lab (issue 14): simulate, compare, sweep -------------------------------
# Thin commands over lab/session.py; numpy, scipy and matplotlib come
# with the `kittens-engine[lab]` extra and are imported only when these commands run.

LabGamesOpt = Annotated[int, typer.Option("--games", "-g", min=1, help="Games per ruleset; game i uses seed+i.")]
LabBotsOpt = Annotated[str, typer.Option("--bots", "-b", help=BOTS_HELP + " Mixing them measures skill.", autocompletion=complete.bots)]
LabWorkersOpt = Annotated[Optional[int], typer.Option("--workers", "-j", min=1, help="Processes to play on (default: every core; small runs use fewer).")]
LabSchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Play on a Dask cluster: its scheduler's address, tcp://HOST:PORT (needs kittens-engine[cluster]).")]
LabOutOpt = Annotated[Optional[str], typer.Option("--out", "-o", help="Stream every game's record to this file (JSON lines) as games end.")]
LabResumeOpt = Annotated[bool, typer.Option("--resume", help="Continue the --out file: count the games it holds and play only the rest.")]
LabReportOpt = Annotated[Optional[str], typer.Option("--report", help="Write one self-contained HTML page with plots to this file.")]
LabFixedOpt = Annotated[bool, typer.Option("--fixed-seats", help="Keep each bot at its seat (default: bots move round the seats game by game, so seat and skill are not confused).")]
LabDealOpt = Annotated[bool, typer.Option("--deal-per-rotation", help="Play each deal once from every turn of the line-up (game i deals seed + i // players), so the luck of the deal falls alike on every bot.")]
LabFormatOpt = Annotated[Format, typer.Option("--format", "-f", help="text for people, json for every number.")]
LabSkillOpt = Annotated[Optional[str], typer.Option("--skill", help="Also measure skill: one seat of this stronger bot (e.g. ismcts:iterations=20:search=single) against the run's bots, seats rotating; its win rate under each ruleset, and the change with its p-value.", autocompletion=complete.bots)]
LabSkillGamesOpt = Annotated[Optional[int], typer.Option("--skill-games", min=1, help="Games of the --skill series (default: --games).")]


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
            fail(f"kittens {command} needs the {extra} extra ({name} is missing): "
                 f"pip install 'kittens-engine[{extra}]'", EXIT_USAGE)


def _lab(command: str, output: Format, as_json: bool, report: Optional[str], run,
         scheduler: Optional[str] = None) -> None:
    """Run a lab command: errors become exit codes (JSON errors under --format json), the
    result is printed, the HTML page written, and an interrupted run exits 130."""
    from .interpreter.engine.game import RuleRuntimeError
    from .interpreter.rules.load import RuleError, UsageError
    from .lab.progress import progress_bar

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
                       + (" (--resume continues the --out file)" if result.data["meta"].get("out") else ""),
                       err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _lab_options(command, players, games, bots, seed, fixed_seats, workers, scheduler, out, resume, progress,
                 deal_per_rotation=False, skill=None, skill_games=None):
    from .lab.session import Options

    if resume and out is None:
        raise _usage("--resume continues an --out file: give one")
    if deal_per_rotation and fixed_seats:
        raise _usage("--deal-per-rotation plays each deal from every turn of the line-up: "
                     "leave out --fixed-seats")
    names = _parsed_bots(bots, *([skill.strip()] if skill is not None else []))
    if skill is not None and skill.strip() in names:
        raise _usage(f"--skill {skill.strip()} is one of the run's bots: name a stronger one "
                     "(the skill series seats it against the run's bots)")
    return Options(players=players, games=games, bots=tuple(names), seed=seed,
                   rotate=not fixed_seats, workers=workers, scheduler=scheduler, out=out, resume=resume,
                   progress=progress, deal_per_rotation=deal_per_rotation,
                   skill=skill.strip() if skill is not None else None, skill_games=skill_games)


def _usage(message: str):
    """A usage error to raise inside a lab run (:func:`_lab` makes it exit 2)."""
    from .interpreter.rules.load import UsageError
    return UsageError(message)


@app.command()
def simulate(
    edition: EditionArg,
    players: PlayersOpt = None,
    games: LabGamesOpt = 1000,
    bots: LabBotsOpt = "random",
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    fixed_seats: LabFixedOpt = False,
    deal_per_rotation: LabDealOpt = False,
    workers: LabWorkersOpt = None,
    scheduler: LabSchedulerOpt = None,
    out: LabOutOpt = None,
    resume: LabResumeOpt = False,
    report: LabReportOpt = None,
    output: LabFormatOpt = Format.text,
    as_json: JsonOpt = False,
    skill: LabSkillOpt = None,
    skill_games: LabSkillGamesOpt = None,
) -> None:
    """Play many bot games on every core and sum them up with 95% confidence intervals:
    win rate by seat, seat fairness, skill, game length, eliminations, limits, cards."""
    from .lab import session

    def run(progress):
        arm = session.Ruleset(edition, variant, tuple(expansions or ()))
        options = _lab_options("simulate", players, games, bots, seed, fixed_seats, workers, scheduler,
                               out, resume, progress, deal_per_rotation, skill, skill_games)
        return session.simulate(arm, options)

    _lab("simulate", output, as_json, report, run, scheduler)


@app.command()
def compare(
    rulesets: Annotated[List[str], typer.Argument(help="Two rulesets or more, the first the baseline: a file, a shipped name, RULES@VARIANT, RULES+EXPANSION (e.g. original original@older_printing).", show_default=False, autocompletion=complete.editions)],
    players: PlayersOpt = None,
    games: LabGamesOpt = 1000,
    bots: LabBotsOpt = "random",
    seed: SeedOpt = 0,
    variant: Annotated[Optional[str], typer.Option("--variant", help="A variant for every ruleset that names none.", autocompletion=complete.variants)] = None,
    expansions: WithOpt = None,
    fixed_seats: LabFixedOpt = False,
    deal_per_rotation: LabDealOpt = False,
    workers: LabWorkersOpt = None,
    scheduler: LabSchedulerOpt = None,
    out: LabOutOpt = None,
    resume: LabResumeOpt = False,
    report: LabReportOpt = None,
    output: LabFormatOpt = Format.text,
    as_json: JsonOpt = False,
    skill: LabSkillOpt = None,
    skill_games: LabSkillGamesOpt = None,
) -> None:
    """Play the same seeds under each ruleset and say what changes against the first,
    each difference with its 95% interval and p-value."""
    from .lab import session
    from .lab.rulesets import parse_ruleset

    def run(progress):
        arms = [parse_ruleset(text, variant, expansions) for text in rulesets]
        options = _lab_options("compare", players, games, bots, seed, fixed_seats, workers, scheduler,
                               out, resume, progress, deal_per_rotation, skill, skill_games)
        return session.compare(arms, options)

    _lab("compare", output, as_json, report, run, scheduler)


@app.command()
def sweep(
    edition: EditionArg,
    set_param: Annotated[Optional[str], typer.Option("--set", help="A parameter over a range: NAME=A..B (or A..B/STEP, or v1,v2,...), e.g. hand_size=4..8.")] = None,
    count: Annotated[Optional[str], typer.Option("--count", help="A card's count over a range: CARD=A..B, e.g. nope=2..8.")] = None,
    metric: Annotated[Optional[List[str]], typer.Option("--metric", "-m", help="A figure to follow across the sweep, with its interval (repeat for several): turns, decisions, first_player, no_winner, limits, seat_spread, fairness_p, seat:N, team:N, bot:NAME, card:ID, noped:ID, drawn:ID, out:K.")] = None,
    players: PlayersOpt = None,
    games: LabGamesOpt = 1000,
    bots: LabBotsOpt = "random",
    seed: SeedOpt = 0,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    fixed_seats: LabFixedOpt = False,
    deal_per_rotation: LabDealOpt = False,
    workers: LabWorkersOpt = None,
    scheduler: LabSchedulerOpt = None,
    out: LabOutOpt = None,
    resume: LabResumeOpt = False,
    report: LabReportOpt = None,
    output: LabFormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Simulate each value of one parameter or card count (the same seeds at each) and
    show how game length, seat fairness and the first player's chances move."""
    from .lab import session

    def run(progress):
        if (set_param is None) == (count is None):
            raise _usage("give one of --set NAME=A..B or --count CARD=A..B")
        key = "set_params" if set_param is not None else "set_counts"
        name, values = session.parse_sweep(set_param if set_param is not None else count, key)
        arm = session.Ruleset(edition, variant, tuple(expansions or ()))
        options = _lab_options("sweep", players, games, bots, seed, fixed_seats, workers, scheduler,
                               out, resume, progress, deal_per_rotation)
        return session.sweep(arm, key, name, values, options, metric or ())

    _lab("sweep", output, as_json, report, run, scheduler)

# -- end of the balance lab -------------------------------------------------------------


@contextlib.contextmanager
def _atomic_text(path: str, command: str, binary: bool = False):
    """Write a text file (bytes with ``binary``) whole or not at all: a temporary file
    renamed at the end."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or (os.path.exists(path) and not os.path.isfile(path)):
        fail(f"cannot write {path}: it is a folder or a device, not a file; name a file")
    try:
        handle = tempfile.NamedTemporaryFile("wb" if binary else "w", encoding=None if binary else "utf-8",
                                             dir=folder, delete=False, prefix=".kittens-", suffix=".tmp")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except OSError as exc:  # the disk filled up, the folder went away
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        fail(f"cannot write {path}: {exc.strerror or exc}")
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise


# -- kittens serve (issue 16: the web table) -----------------------------------------------
@app.command()
def serve(
    rules: Annotated[Optional[List[str]], typer.Argument(help="Rule files (or folders) the lobby offers besides the shipped editions, e.g. your house rules.", show_default=False, autocompletion=complete.rule_files)] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 for this computer only, 0.0.0.0 for every device on your network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    data: Annotated[str, typer.Option("--data", help="Where rooms, their decisions (SQLite) and uploaded house rules are kept.")] = ".kittens-serve",
    answer_seconds: Annotated[float, typer.Option("--answer-seconds", min=0.05, max=600, help="How long every reaction window stays open for answers (the same for everyone).")] = 6.0,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0, max=60, help="Seconds a bot waits before it plays, so people can follow.")] = 0.8,
    keep_finished_hours: Annotated[float, typer.Option("--keep-finished-hours", min=0.01, max=8760, help="Hours a finished table stays open, to look at the end and download the log; then it closes and its data is deleted.")] = 24.0,
    idle_hours: Annotated[float, typer.Option("--idle-hours", min=0.01, max=8760, help="Hours after its last move a table closes and its data is deleted, finished or not.")] = 168.0,
    output: Annotated[Format, typer.Option("--format", "-f", help="text for people, json for tools (one line with the addresses).")] = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Serve a playtest table in the browser: people on their own phones or laptops, bots in
    the empty seats, any edition or uploaded house rule. Rooms are kept in --data, and a
    restarted server brings every game back where it was, until the table closes: a day after
    its game ends, or a week after its last move (--keep-finished-hours, --idle-hours)."""
    import socket

    as_json = start("serve", output, as_json) == "json"

    try:
        import uvicorn

        from .web.app import Settings, create_app
    except ImportError as exc:
        fail(f"the web table needs the web extra ({exc.name} is missing): pip install 'kittens-engine[web]'",
             EXIT_USAGE)
    from .interpreter.rules.catalog import catalog
    from .interpreter.rules.load import RuleError, UsageError

    for path in rules or ():
        try:
            entries = catalog([path])
        except UsageError as exc:
            fail(str(exc), EXIT_USAGE)
        bad = [entry for entry in entries if entry.get("errors")]
        if bad or not entries:
            fail(f"{path}: " + ("has errors: run kittens validate on it" if bad else
                                "holds no edition or expansion to play"), EXIT_ERRORS)
    try:
        os.makedirs(data, exist_ok=True)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on, while the rooms load
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", EXIT_USAGE)
    port = sock.getsockname()[1]
    settings = Settings(data=data, rules=tuple(rules or ()), answer_seconds=answer_seconds, bot_delay=bot_delay,
                        keep_finished=keep_finished_hours * 3600, idle_seconds=idle_hours * 3600, freeze_gc=True)
    try:
        application = create_app(settings)
    except RuleError as exc:
        fail(str(exc), EXIT_ERRORS)
    urls = _serve_urls(host, port)
    if as_json:
        echo(json.dumps({"urls": urls, "host": host, "port": port, "data": os.path.abspath(data),
                               "keep_finished_hours": keep_finished_hours, "idle_hours": idle_hours}))
    else:
        echo(f"kittens serve: the table is at {urls[0]} (Ctrl-C stops it; rooms are kept in {data})")
        for url in urls[1:]:
            echo(f"  on your network: {url}")
        if host in ("127.0.0.1", "localhost", "::1"):
            echo("  only this computer can reach it; with --host 0.0.0.0 every device on your network can")
        from .web.retire import span

        echo(f"  a table closes {span(settings.keep_finished)} after its game ends, or "
                   f"{span(settings.idle_seconds)} after its last move (--keep-finished-hours, --idle-hours)")
    config = uvicorn.Config(application, log_level="warning", ws_max_size=1 << 20, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def _serve_urls(host: str, port: int) -> list[str]:
    """The addresses to open: this computer's own first, then its network addresses when
    the server listens on every interface."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    return [f"http://127.0.0.1:{port}/"] + [f"http://{address}:{port}/" for address in found]
# -- end of kittens serve --------------------------------------------------------------------


def main() -> None:
    """Console-script entry point: run the app, never show a traceback (clikit.run_app)."""
    from .commands.kit import run_app

    sys.exit(run_app(app))
