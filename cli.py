"""The `kittens` command line: thin typer commands over the library.

Library errors become exit statuses here, at the boundary: 0 when all is well
(warnings allowed), 1 when rule files have errors, 2 for usage problems, 3 for
an internal error (a bug in kittens; reported without a traceback), 130 when
stopped by Ctrl-C.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from enum import Enum
from typing import Annotated, List, Optional

import typer

from .about import __version__

app = typer.Typer(
    name="kittens",
    help="A rules-as-data engine for Exploding Kittens: editions, cards and combos written in YAML.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kittens {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Exploding Kittens editions, cards and combos written as data."""


@app.command()
def validate(
    paths: Annotated[List[str], typer.Argument(help="Rule files or folders (searched for *.yaml).",
                                               show_default=False)],
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for tools.")]
    = OutputFormat.text,
    allow_outside: Annotated[bool, typer.Option(
        "--allow-outside", help="Follow references (include, uses, extends, apply, base, edition) "
        "outside the rule folders: the project of each file named, the kittens package, installed "
        "expansions. The same as KITTENS_ALLOW_OUTSIDE=1.")] = False,
) -> None:
    """Check rule files: YAML, schema, effects, and the rules a schema cannot express."""
    from .interpreter.lang.diagnostics import render_json
    from .interpreter.rules.load import UsageError
    from .interpreter.tools.validate import validate_paths

    try:
        report = validate_paths(paths, allow_outside=allow_outside or None)
    except UsageError as exc:
        typer.echo(f"kittens validate: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if output is OutputFormat.json:
        typer.echo(render_json(report.diagnostics, report.files))
    else:
        color = sys.stdout.isatty()
        for diagnostic in report.diagnostics:
            text = diagnostic.render()
            if color:
                word = diagnostic.severity
                text = text.replace(f" {word}: ", " " + typer.style(
                    f"{word}:", fg="red" if diagnostic.is_error else "yellow", bold=True) + " ", 1)
            typer.echo(text)
        files = len(report.files)
        typer.echo(f"checked {files} file{'s' if files != 1 else ''}: "
                   f"{report.errors} error{'s' if report.errors != 1 else ''}, "
                   f"{report.warnings} warning{'s' if report.warnings != 1 else ''}")
    raise typer.Exit(EXIT_ERRORS if report.errors else EXIT_OK)


def _load_edition(path: str, variant: str | None, command: str, expansions=None):
    """Compile an edition for play; rule errors print as diagnostics and exit 1, a name
    or path that names nothing exits 2."""
    from .interpreter.rules.load import RuleError, UsageError, load_edition

    try:
        return load_edition(path, variant, tuple(expansions or ()))
    except UsageError as exc:
        typer.echo(f"kittens {command}: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except RuleError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_ERRORS)


def _players_for(edition, players: int | None, command: str) -> int:
    lo, hi = edition.players
    if players is None:
        return min(max(4, lo), hi)
    if not lo <= players <= hi:
        typer.echo(f"kittens {command}: {edition.name} is for {lo} to {hi} players, not {players}",
                   err=True)
        raise typer.Exit(EXIT_USAGE)
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
    typer.echo(f"kittens {command}: warning: with {players} players '{card_id}' does nothing, since "
               f"no card that uses it ({', '.join(users)}) reaches the game{hint}", err=True)


def _bot_names(bots: str, command: str) -> list[str]:
    from .interpreter.engine.bots import BOTS

    names = [name.strip() for name in bots.split(",") if name.strip()]
    for name in names or [""]:
        if name not in BOTS:
            typer.echo(f"kittens {command}: unknown bot '{name}'; the bots are: "
                       f"{', '.join(BOTS)}", err=True)
            raise typer.Exit(EXIT_USAGE)
    return names


EditionArg = Annotated[str, typer.Argument(help="An edition file (e.g. editions/original.yaml), or a shipped edition's name (original).",
                                           show_default=False)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", min=1,
                                                   help="Number of seats (default: 4, within the edition's range).")]
VariantOpt = Annotated[Optional[str], typer.Option("--variant", help="Play one of the edition's variants.")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Seed for all chance; the same seed replays the same game.")]
WithOpt = Annotated[Optional[List[str]], typer.Option("--with", "-w", help="Apply an expansion to the edition: a file, a folder holding expansion.yaml, or an installed expansion's name (repeat for several, applied in order).")]


@app.command()
def run(
    edition: EditionArg,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games; game i uses seed+i.")] = 1,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots by seat, comma-separated, repeated to fill the table: random, heuristic.")] = "random",
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    log: Annotated[Optional[str], typer.Option("--log", help="Write every event of every game to this file, as JSON lines, each game as it ends.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    each: Annotated[Optional[bool], typer.Option("--each/--no-each", help="A line per game with its winner (default: only for up to 20 games).")] = None,
) -> None:
    """Play bot-only games and print who won each and a summary. Ctrl-C stops after the
    finished games, with their summary (exit 130)."""
    from .interpreter.engine.game import Game, RuleRuntimeError
    from .interpreter.tools.replay import header_fields
    from .interpreter.engine.simulate import run_games

    compiled = _load_edition(edition, variant, "run", expansions)
    count = _players_for(compiled, players, "run")
    names = _bot_names(bots, "run")
    seats = [names[seat % len(names)] for seat in range(count)]
    game = Game(compiled, count)
    show_each = not as_json and (each or (each is None and games <= 20))

    def print_game(game_seed, state):
        winner = state.winner
        who = "nobody (turn limit)" if winner is None else f"seat {winner} ({seats[winner]})"
        typer.echo(f"seed {game_seed}: {who} wins after {state.table.turn} turns")

    stream = _open_log(log, "run")
    with stream or contextlib.nullcontext():
        try:
            summary = run_games(game, games=games, seed=seed, bots=names, log=stream,
                                header=header_fields(edition, expansions or ()) if log else None,
                                keep_results=False, on_game=print_game if show_each else None)
        except (RuleRuntimeError, OSError) as exc:
            if isinstance(exc, OSError):  # the log: a full disk, a file system gone
                typer.echo(f"kittens run: cannot write the log {log}: {exc.strerror or exc}", err=True)
            else:
                typer.echo(f"kittens run: the rules broke down in play: {exc}", err=True)
            if stream is not None and stream.games:
                typer.echo(f"kittens run: {log} holds the {stream.games} game(s) finished before",
                           err=True)
            raise typer.Exit(EXIT_ERRORS if isinstance(exc, RuleRuntimeError) else EXIT_USAGE)
    if as_json:
        typer.echo(json.dumps(summary.to_dict(count, seats, seed)))
    else:
        _print_summary(summary, compiled.name, seats)
        if log and summary.games:
            typer.echo(f"log written to {log}")
    if summary.interrupted:
        typer.echo(f"kittens run: interrupted after {summary.games} finished game(s)"
                   + (f"; {log} holds them" if log and summary.games else ""), err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _print_summary(summary, name: str, seats: list[str]) -> None:
    count, games = len(seats), summary.games
    typer.echo(f"{games} game{'s' if games != 1 else ''} of {name}, "
               f"{count} players, bots {', '.join(seats)}")
    if not games:
        return
    for seat in range(count):
        wins = summary.wins.get(seat, 0)
        typer.echo(f"  seat {seat} ({seats[seat]}): {wins} win{'s' if wins != 1 else ''} "
                   f"({100 * wins / games:.1f}%)")
    if len(set(seats)) > 1:
        for bot, wins in summary.wins_by_bot(seats).items():
            share = seats.count(bot)
            typer.echo(f"  all {bot} bots ({share} seat{'s' if share != 1 else ''}): {wins} wins "
                       f"({100 * wins / games:.1f}%)")
    if summary.no_winner:
        typer.echo(f"  no winner (turn limit): {summary.no_winner}")
    speed = f"; {games / summary.seconds:.0f} games/s" if summary.seconds else ""
    typer.echo(f"  mean turns per game: {summary.turns / games:.1f}{speed}")


def _open_log(path: str | None, command: str):
    """The log file a command writes games to, checked before any game is played:
    a place that cannot hold it is a usage error."""
    from .interpreter.engine.simulate import LogFile

    if path is None:
        return None
    try:
        return LogFile(path)
    except (OSError, ValueError) as exc:
        typer.echo(f"kittens {command}: cannot write the log {path}: "
                   f"{getattr(exc, 'strerror', None) or exc}", err=True)
        raise typer.Exit(EXIT_USAGE)


@app.command()
def replay(
    log: Annotated[str, typer.Argument(help="A log written by `kittens run --log` or `kittens play --log`.", show_default=False)],
    rules: Annotated[Optional[str], typer.Option("--rules", help="The edition file to replay with instead of the one the log names (when it has moved): a file, or a shipped edition's name.")] = None,
    expansions: Annotated[Optional[List[str]], typer.Option("--with", "-w", help="The expansions to replay with instead of those the log names (give them all, in order).")] = None,
) -> None:
    """Replay each logged game from its seed and decisions, and check every event matches.

    Exit 1 if a game differs or is incomplete (the log stops before its end)."""
    from .interpreter.tools.replay import LogError, replay_log
    from .interpreter.rules.load import RuleError

    verified = incomplete = total = 0
    try:
        for result in replay_log(log, rules=rules, expansions=expansions):
            total += 1
            seed = result.header.get("seed")
            label = f"game {result.game}" + (f" (seed {seed})" if isinstance(seed, int) else "")
            if result.mismatch is not None:
                typer.echo(f"{label}: MISMATCH: {result.mismatch}")
            elif result.incomplete is not None:
                incomplete += 1
                typer.echo(f"{label}: INCOMPLETE: {result.incomplete}")
            else:
                verified += 1
                who = "no winner" if result.winner is None else f"seat {result.winner} wins"
                typer.echo(f"{label}: verified {result.events} events; {who}")
    except LogError as exc:
        typer.echo(f"kittens replay: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except RuleError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_ERRORS)
    except KeyboardInterrupt:
        stopped = True
    else:
        stopped = False
    typer.echo(f"{verified} of {total} game(s) replayed identically"
               + (f"; {incomplete} incomplete" if incomplete else ""))
    if stopped:
        typer.echo(f"kittens replay: interrupted after {total} game(s)", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(EXIT_ERRORS if verified < total else EXIT_OK)


@app.command()
def play(
    edition: EditionArg,
    players: PlayersOpt = None,
    seat: Annotated[Optional[List[int]], typer.Option("--seat", "-k", help="A seat played by a person (repeat for hot-seat play; default: seat 0).")] = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots for the other seats, comma-separated: random, heuristic.")] = "heuristic",
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed for all chance (default: a new one each game).")] = None,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    log: Annotated[Optional[str], typer.Option("--log", help="Write the game's events to this file (JSON lines) when it ends or you stop.")] = None,
) -> None:
    """Play in the terminal against bots; several people can play hot-seat."""
    import random

    from .interpreter.engine.bots import make_bots
    from .interpreter.engine.events import dumps
    from .interpreter.engine.game import Game, RuleRuntimeError
    from .interpreter.tools.replay import header_fields
    from .interpreter.engine.simulate import game_header
    from .terminal import HumanTable, Quit, Terminal

    compiled = _load_edition(edition, variant, "play", expansions)
    count = _players_for(compiled, players, "play")
    humans = sorted(set(seat or [0]))
    bad = [k for k in humans if not 0 <= k < count]
    if bad:
        typer.echo(f"kittens play: there is no seat {bad[0]} in a {count}-player game "
                   "(seats count from 0)", err=True)
        raise typer.Exit(EXIT_USAGE)
    names = _bot_names(bots, "play")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = Game(compiled, count)
    all_bots = make_bots(names, count, seed)
    seat_bots = {k: all_bots[k] for k in range(count) if k not in humans}
    for k, bot in seat_bots.items():
        start = getattr(bot, "start", None)
        if start:
            start(game, k)
    stream = _open_log(log, "play")  # before the game: a bad place is said at once
    state = game.new_state(seed)

    def write_log():  # the game as far as it went: a stopped game replays as incomplete
        labels = ["person" if k in humans else seat_bots[k].name for k in range(count)]
        lines = [dumps(game_header(game, seed, labels, **header_fields(edition, expansions or ())))]
        stream.write("\n".join(lines + [dumps(event) for event in state.events]) + "\n")

    with stream or contextlib.nullcontext():
        typer.echo(f"{compiled.name}: {count} players, seed {seed}. You are seat "
                   f"{', '.join(map(str, humans))}; bots: " +
                   ", ".join(f"seat {k} {b.name}" for k, b in seat_bots.items()))
        table = HumanTable(state, humans, seat_bots, Terminal(read=_prompt, write=typer.echo))
        try:
            table.play()
        except Quit:
            typer.echo(f"Stopped. Play this game again with --seed {seed}.")
        except KeyboardInterrupt:
            if stream is not None:
                write_log()
            raise
        except RuleRuntimeError as exc:
            typer.echo(f"kittens play: the rules broke down in play: {exc}", err=True)
            raise typer.Exit(EXIT_ERRORS)
        if stream is not None:
            write_log()


def _prompt(text: str) -> str:
    """One line from the person at the terminal; end of input reads as EOFError."""
    try:
        return typer.prompt(text, default="", show_default=False, prompt_suffix=" ")
    except typer.Abort:
        raise EOFError from None


@app.command()
def bench(
    edition: Annotated[str, typer.Argument(help="The edition to time.")] = "",
    players: Annotated[int, typer.Option("--players", "-p", min=1, help="Seats per game.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per round.")] = 2000,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds; the best is reported.")] = 3,
    events: Annotated[bool, typer.Option("--events/--no-events", help="Also record every event (as --log does).")] = False,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Time random-bot games on one core: games and decisions per second."""
    import platform

    from .about import EDITIONS_DIR
    from .interpreter.engine.game import RuleRuntimeError
    from .interpreter.engine.simulate import benchmark

    path = edition or str(EDITIONS_DIR / "original.yaml")
    compiled = _load_edition(path, variant, "bench", expansions)
    count = _players_for(compiled, players, "bench")
    try:
        figures = benchmark(compiled, players=count, games=games, rounds=rounds, record=events)
    except RuleRuntimeError as exc:
        typer.echo(f"kittens bench: the rules broke down in play: {exc}", err=True)
        raise typer.Exit(EXIT_ERRORS)
    figures["edition"] = compiled.id
    figures["python"] = platform.python_version()
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(f"{compiled.name}, {count} random bots, {games} games x {rounds} rounds (best), "
               f"events {'on' if events else 'off'}, Python {figures['python']}, one core")
    typer.echo(f"  {figures['games_per_second']:,.0f} games/s")
    typer.echo(f"  {figures['decisions_per_second']:,} decisions/s "
               f"({figures['decisions_per_game']} decisions per game)")


@app.command("list")
def list_editions(
    paths: Annotated[Optional[List[str]], typer.Argument(help="Folders or files to look in (default: the editions that come with kittens).", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of objects: name, kind, path, players, ...")] = False,
) -> None:
    """List the editions, expansions and variants you can play, with their player ranges.

    Without PATHS: the editions that come with kittens, and the expansions
    installed Python packages declare (entry point group `kittens.expansions`)."""
    from .interpreter.rules.catalog import catalog, installed_catalog, shipped_editions
    from .interpreter.rules.load import UsageError

    try:
        entries = catalog(paths or [shipped_editions()]) + (installed_catalog() if not paths else [])
    except UsageError as exc:
        typer.echo(f"kittens list: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if as_json:
        typer.echo(json.dumps(entries, indent=2))
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
            label = f"--with {entry.get('name_to_use', entry['id'])}  ({entry['installed']}: {entry['path']})"
            if entry.get("problem"):
                label = f"({entry['installed']}: {entry['problem']})"
        typer.echo(f"{indent}{entry['name']}  [{entry['kind']}, {players}]  {label}")


@app.command()
def show(
    edition: EditionArg,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the resolved edition and the origin of each value as JSON.")] = False,
) -> None:
    """Print the resolved edition as YAML, each value with the file and line that set it."""
    from .interpreter.tools.resolved import as_data, render_show

    compiled = _load_edition(edition, variant, "show", expansions)
    if as_json:
        origins = {key: (str(origin) if origin else None) for key, origin in compiled.origins.items()}
        origins.update({f"cards.{card_id}": [str(card.origin), *map(str, card.changed_at)]
                        for card_id, card in compiled.cards.items()})
        typer.echo(json.dumps({"edition": as_data(compiled), "sources": list(compiled.sources),
                               "origins": origins}, indent=2))
        return
    typer.echo(render_show(compiled), nl=False)


@app.command()
def diff(
    first: Annotated[str, typer.Argument(help="The ruleset to compare against (an edition file).", show_default=False)],
    second: Annotated[str, typer.Argument(help="The ruleset whose changes are shown (e.g. a house rule).", show_default=False)],
    variant: Annotated[Optional[str], typer.Option("--variant", help="Compare against this variant of the SECOND file.")] = None,
    expansions: WithOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the changes as a JSON list.")] = False,
) -> None:
    """Show what the second ruleset changes against the first: deck, cards, combos, parameters, setup."""
    from .interpreter.tools.resolved import diff as compare, render_diff

    before = _load_edition(first, None, "diff")
    after = _load_edition(second, variant, "diff", expansions)
    changes = compare(before, after)
    if as_json:
        typer.echo(json.dumps([change.to_dict() for change in changes], indent=2, default=str))
        return
    typer.echo(render_diff(changes, before, after), nl=False)


class SheetFormat(str, Enum):
    markdown = "markdown"
    html = "html"


@app.command()
def rules(
    edition: EditionArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    output_format: Annotated[SheetFormat, typer.Option("--format", "-f", help="markdown or html.")] = SheetFormat.markdown,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write the rulesheet to this file instead of printing it.")] = None,
) -> None:
    """Write a rulesheet generated from the rules: setup, deck, cards, combos, and what changed."""
    from .interpreter.tools.resolved import against_base
    from .interpreter.tools.rulesheet import render_rulesheet

    whole = _load_edition(edition, None, "rules", expansions)
    compiled = _load_edition(edition, variant, "rules", expansions) if variant else whole
    count = _players_for(compiled, players, "rules")
    base, changes = against_base(compiled, whole, lambda path: _load_edition(path, None, "rules"))
    lines = None
    if base is not None:
        label = f"Against {base.name}" + (f" ({base.variant})" if base.variant else "")
        lines = [f"{label}:"] + [change.render() for change in changes] if changes else \
            [f"{label}: no differences in the rules"]
    sheet = render_rulesheet(compiled, count, output_format.value, changes=lines)
    if output is None:
        typer.echo(sheet, nl=False)
        return
    with _atomic_text(output, "rules") as stream:
        stream.write(sheet)
    typer.echo(f"rulesheet written to {output}")


new_app = typer.Typer(help="Write starter files: a house rule or an expansion, with a scenario.",
                      no_args_is_help=True)
app.add_typer(new_app, name="new")


def _scaffold(make, *args) -> None:
    from .interpreter.tools.scaffold import ScaffoldError
    from .interpreter.rules.load import RuleError

    try:
        written = make(*args)
    except ScaffoldError as exc:
        typer.echo(f"kittens new: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    except RuleError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_ERRORS)
    for item in written:
        typer.echo(f"wrote {item.path} ({item.what})")


@new_app.command("house-rule")
def new_house_rule(
    name: Annotated[str, typer.Argument(help="The house rule's name, e.g. 'Two Defuses'.", show_default=False)],
    base: Annotated[str, typer.Option("--from", help="The edition it changes: a file, or a shipped edition's name.")] = "original",
    folder: Annotated[str, typer.Option("--dir", "-d", help="Where to write the files.")] = ".",
) -> None:
    """A house rule that extends an edition (NAME.yaml) and a scenario beside it."""
    from .interpreter.tools.scaffold import house_rule

    _scaffold(house_rule, name, base, folder)


@new_app.command("expansion")
def new_expansion(
    name: Annotated[str, typer.Argument(help="The expansion's name.", show_default=False)],
    base: Annotated[str, typer.Option("--base", help="The edition it is played with by default.")] = "original",
    folder: Annotated[str, typer.Option("--dir", "-d", help="Where to make the expansion's folder.")] = ".",
) -> None:
    """An expansion folder: expansion.yaml, a card library and a scenario."""
    from .interpreter.tools.scaffold import expansion

    _scaffold(expansion, name, base, folder)


@app.command("test")
def test_scenarios(
    paths: Annotated[List[str], typer.Argument(help="Scenario files or folders (searched for *.yaml).",
                                               show_default=False)],
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every scenario, not only failures.")] = False,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for tools.")]
    = OutputFormat.text,
) -> None:
    """Run scenario files (rule tests) and say which pass."""
    from .interpreter.tools.scenario import ScenarioRunner
    from .interpreter.rules.load import UsageError
    from .interpreter.tools.validate import scenario_files

    try:
        files = scenario_files(paths)
    except UsageError as exc:
        typer.echo(f"kittens test: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    runner = ScenarioRunner()
    if output is OutputFormat.json:
        outcomes = [runner.run(path) for path in files]
        failed = sum(not o.passed for o in outcomes)
        typer.echo(json.dumps({"passed": len(files) - failed, "failed": failed, "results": [
            {"path": o.path, "description": o.description, "passed": o.passed, "failures": o.failures}
            for o in outcomes]}))
        raise typer.Exit(EXIT_ERRORS if failed else EXIT_OK)
    failed = 0
    for path in files:
        outcome = runner.run(path)
        if outcome.passed:
            if verbose:
                typer.echo(f"PASS {path}")
            continue
        failed += 1
        typer.echo(f"FAIL {path}" + (f": {outcome.description}" if outcome.description else ""))
        typer.echo(outcome.message)
    passed = len(files) - failed
    typer.echo(f"{passed} passed, {failed} failed")
    raise typer.Exit(EXIT_ERRORS if failed else EXIT_OK)


@contextlib.contextmanager
def _atomic_text(path: str, command: str):
    """Write a text file whole or not at all: a temporary file renamed at the end."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or (os.path.exists(path) and not os.path.isfile(path)):
        typer.echo(f"kittens {command}: cannot write {path}: it is a folder or a device, not a "
                   "file; name a file", err=True)
        raise typer.Exit(EXIT_USAGE)
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False,
                                             prefix=".kittens-", suffix=".tmp")
    except OSError as exc:
        typer.echo(f"kittens {command}: cannot write {path}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except OSError as exc:  # the disk filled up, the folder went away
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        typer.echo(f"kittens {command}: cannot write {path}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise


# -- kittens serve (issue 16: the web table) -----------------------------------------------
@app.command()
def serve(
    rules: Annotated[Optional[List[str]], typer.Argument(help="Rule files (or folders) the lobby offers besides the shipped editions, e.g. your house rules.", show_default=False)] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on: 127.0.0.1 for this computer only, 0.0.0.0 for every device on your network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    data: Annotated[str, typer.Option("--data", help="Where rooms, their decisions (SQLite) and uploaded house rules are kept.")] = ".kittens-serve",
    answer_seconds: Annotated[float, typer.Option("--answer-seconds", min=0.05, max=600, help="How long every reaction window stays open for answers (the same for everyone).")] = 6.0,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0, max=60, help="Seconds a bot waits before it plays, so people can follow.")] = 0.8,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for tools (one line with the addresses).")] = OutputFormat.text,
) -> None:
    """Serve a playtest table in the browser: people on their own phones or laptops, bots in
    the empty seats, any edition or uploaded house rule. Rooms are kept in --data, and a
    restarted server brings every game back where it was."""
    import socket

    as_json = output is OutputFormat.json

    def fail(message: str, code: int) -> None:
        typer.echo(json.dumps({"error": message, "code": code}) if as_json else f"kittens serve: {message}",
                   err=not as_json)
        raise typer.Exit(code)

    try:
        import uvicorn

        from .interpreter.tools.web.app import Settings, create_app
    except ImportError as exc:
        fail(f"the web table needs the web extra ({exc.name} is missing): pip install 'kittens[web]'",
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
                        freeze_gc=True)
    try:
        application = create_app(settings)
    except RuleError as exc:
        fail(str(exc), EXIT_ERRORS)
    urls = _serve_urls(host, port)
    if as_json:
        typer.echo(json.dumps({"urls": urls, "host": host, "port": port, "data": os.path.abspath(data)}))
    else:
        typer.echo(f"kittens serve: the table is at {urls[0]} (Ctrl-C stops it; rooms are kept in {data})")
        for url in urls[1:]:
            typer.echo(f"  on your network: {url}")
        if host in ("127.0.0.1", "localhost", "::1"):
            typer.echo("  only this computer can reach it; with --host 0.0.0.0 every device on your network can")
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
    """Console-script entry point: run the app, never show a traceback."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # a bug in kittens: say so plainly, no traceback
        if os.environ.get("KITTENS_DEBUG", "") not in ("", "0"):  # for whoever fixes it
            import traceback
            traceback.print_exc()
        typer.echo(f"kittens: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in kittens; please report it with the command you ran "
                   "(KITTENS_DEBUG=1 shows where it happened).", err=True)
        sys.exit(EXIT_INTERNAL)
