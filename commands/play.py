"""Commands that play games: run, replay, play, bench and list."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Annotated, List, Optional

import typer

from ..about import display_path, engine_core
from . import completion as complete
from .app import app
from .kit import (
    EXIT_ERRORS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    STATE,
    Format,
    FormatOpt,
    JsonOpt,
    echo,
    emit,
    fail,
    fail_rules,
    start,
)
from .options import BOTS_HELP, EditionArg, PlayersOpt, SeedOpt, VariantOpt, WithOpt
from .shared import _bot_names, _load_edition, _players_for

#: where `kittens --help` lists these commands
PANEL = "Play"


@app.command(rich_help_panel=PANEL)
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
    from ..adapters.replay import header_fields
    from ..interpreter.engine.endings import no_winner, outcome
    from ..interpreter.engine.game import Game, RuleRuntimeError
    from ..interpreter.engine.simulate import run_games

    as_json = start("run", output, as_json) == "json"
    compiled = _load_edition(edition, variant, "run", expansions)
    count = _players_for(compiled, players, "run")
    names = _bot_names(bots, "run")
    seats = [names[seat % len(names)] for seat in range(count)]
    game = Game(compiled, count)
    show_each = not as_json and (each or (each is None and games <= 20))

    def print_game(game_seed, state):
        turns, reason = state.table.turn, state.table.end_reason
        if not state.winners:
            echo(f"seed {game_seed}: {no_winner(reason, turns)}")
            return
        who = outcome(reason, state.winners, lambda seat: f"{seat} ({seats[seat]})")
        echo(f"seed {game_seed}: {who} after {turns} turns")

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
    from ..interpreter.engine.endings import stopped_lines

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
    for line in stopped_lines(summary.ends, summary.no_winner):
        echo(f"  {line}")
    speed = f"; {games / summary.seconds:.0f} games/s" if summary.seconds else ""
    echo(f"  mean turns per game: {summary.turns / games:.1f}{speed}")


def _open_log(path: str | None, command: str):
    """The log file a command writes games to, checked before any game is played:
    a place that cannot hold it is a usage error."""
    from ..interpreter.engine.simulate import LogFile

    if path is None:
        return None
    try:
        return LogFile(path)
    except (OSError, ValueError) as exc:
        fail(f"cannot write the log {path}: {getattr(exc, 'strerror', None) or exc}")


@app.command(rich_help_panel=PANEL)
def replay(
    log: Annotated[str, typer.Argument(help="A log written by `kittens run --log` or `kittens play --log`.", show_default=False)],
    rules: Annotated[Optional[str], typer.Option("--rules", help="The edition file to replay with instead of the one the log names (when it has moved): a file, or a shipped edition's name.", autocompletion=complete.editions)] = None,
    expansions: Annotated[Optional[List[str]], typer.Option("--with", "-w", help="The expansions to replay with instead of those the log names (give them all, in order).", autocompletion=complete.expansions)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Replay each logged game from its seed and decisions, and check every event matches.

    Exit 1 if a game differs or is incomplete (the log stops before its end)."""
    from ..adapters.replay import LogError, replay_log
    from ..interpreter.engine.endings import outcome
    from ..interpreter.rules.load import RuleError

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
                who = outcome(result.reason, () if result.winner is None else (result.winner,))
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


@app.command(rich_help_panel=PANEL)
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

    from ..adapters.replay import header_fields
    from ..adapters.terminal import HumanTable, Quit, Terminal
    from ..interpreter.engine.game import Game, RuleRuntimeError
    from ..interpreter.engine.logwriter import dumps
    from ..interpreter.engine.players import make_bots
    from ..interpreter.engine.simulate import game_header

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


@app.command(rich_help_panel=PANEL)
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

    from ..about import EDITIONS_DIR
    from ..interpreter.engine.game import RuleRuntimeError
    from ..interpreter.engine.simulate import benchmark

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
                   "builds a compiled core that played 1.8 to 2.0 times as fast on 2026-11-27: docs/speed.md)")


def _shipped_name(path) -> str | None:
    """The name a shipped edition or expansion is used by (`original`), or None."""
    from ..about import EDITIONS_DIR

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


@app.command("list", rich_help_panel=PANEL)
def list_editions(
    paths: Annotated[Optional[List[str]], typer.Argument(help="Folders or files to look in (default: the editions that come with kittens).", show_default=False)] = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: a JSON list of objects: name, kind, path, players, ...")] = False,
) -> None:
    """List the editions, expansions and variants you can play, with their player ranges.

    Without PATHS: the editions that come with kittens (shown by the name you use
    them by), and the expansions installed Python packages declare (entry point
    group `kittens.expansions`)."""
    from ..interpreter.rules.catalog import catalog, installed_catalog, shipped_editions
    from ..interpreter.rules.load import UsageError

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
