"""Option and argument types every command shares, declared once: their help and
completion come with them."""

from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Annotated, List, Optional

import typer

from . import completion as complete
from .kit import Format, JsonOpt

BOTS_HELP = ("Bots by seat, comma-separated, repeated to fill the table: random, heuristic, ismcts "
             "(settings as ismcts:iterations=800), or package.module:Class for your own.")


EditionArg = Annotated[str, typer.Argument(help="An edition file (e.g. editions/original.yaml), or a shipped edition's name (original); RULES@VARIANT and RULES+EXPANSION as well (original@beginner).",
                                           show_default=False, autocompletion=complete.editions)]


PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", min=1,
                                                   help="Number of seats (default: 4, within the edition's range).")]


VariantOpt = Annotated[Optional[str], typer.Option("--variant", help="Play one of the edition's variants.",
                                                   autocompletion=complete.variants)]


SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Seed for all chance; the same seed replays the same game.")]


WithOpt = Annotated[Optional[List[str]], typer.Option("--with", "-w", help="Apply an expansion to the edition: a file, a folder holding expansion.yaml, or an installed expansion's name (repeat for several, applied in order).",
                                                      autocompletion=complete.expansions)]


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


# -- the options every lab run takes, declared once ----------------------------------------

@dataclasses.dataclass(frozen=True)
class LabArgs:
    """What the options of a lab run (simulate, compare, sweep) said, in one value."""

    players: Optional[int]
    games: int
    bots: str
    seed: int
    expansions: Optional[List[str]]
    fixed_seats: bool
    deal_per_rotation: bool
    workers: Optional[int]
    scheduler: Optional[str]
    out: Optional[str]
    resume: bool
    report: Optional[str]
    output: Format
    as_json: bool


#: the lab's shared parameters in the order `--help` lists them, after a command's own
LAB_PARAMETERS = [
    ("players", PlayersOpt, None), ("games", LabGamesOpt, 1000), ("bots", LabBotsOpt, "random"),
    ("seed", SeedOpt, 0), ("expansions", WithOpt, None), ("fixed_seats", LabFixedOpt, False),
    ("deal_per_rotation", LabDealOpt, False), ("workers", LabWorkersOpt, None),
    ("scheduler", LabSchedulerOpt, None), ("out", LabOutOpt, None), ("resume", LabResumeOpt, False),
    ("report", LabReportOpt, None), ("output", LabFormatOpt, Format.text), ("as_json", JsonOpt, False),
]


def lab_options(command):
    """Give a lab command the options every lab run takes, declared once here: the
    command declares only its own parameters and a last one, ``lab: LabArgs``, which
    receives the shared ones (typer sees one flat signature, so help and completion
    come from these declarations)."""
    own = inspect.signature(command, eval_str=True)
    kept = [p for name, p in own.parameters.items() if name != "lab"]
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
              for name, kind, default in LAB_PARAMETERS]

    @functools.wraps(command)
    def with_lab_options(**given):
        lab = LabArgs(**{name: given.pop(name) for name, _kind, _default in LAB_PARAMETERS})
        return command(lab=lab, **given)

    with_lab_options.__signature__ = own.replace(parameters=kept + shared)
    with_lab_options.__annotations__ = {p.name: p.annotation for p in kept + shared}
    del with_lab_options.__wrapped__  # typer reads the signature above, not the command's
    return with_lab_options
