"""Commands for people who write rules: validate, show, diff, rules, print, new, test,
docs and schema."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from enum import Enum
from typing import Annotated, List, Optional

import typer

from ..about import __version__, display_path
from . import completion as complete
from .app import app
from .kit import (
    EXIT_ERRORS,
    EXIT_OK,
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
from .options import EditionArg, PlayersOpt, VariantOpt, WithOpt
from .shared import _atomic_text, _load_edition, _players_for

#: where `kittens --help` lists these commands
PANEL = "Write rules"


@app.command(rich_help_panel=PANEL)
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
    from ..interpreter.lang.diagnostics import printable, render_json
    from ..interpreter.rules.check import validate_paths
    from ..interpreter.rules.load import UsageError

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
        from ..interpreter.lang.annotations import for_ci, render_github, render_sarif

        found = for_ci(report)  # a finding in a shipped file is told on the file that caused it
        if fmt == "github":
            echo(render_github([shown(d) for d in found]), nl=False)
        else:  # SARIF wants URIs: paths as given or relative, never `<kittens>/...`
            raw = [os.path.relpath(f) if os.path.isabs(f) and not os.path.relpath(f).startswith("..")
                   else f for f in report.files]
            echo(render_sarif(found, raw, __version__))
    else:
        from ..interpreter.lang.annotations import render_moved, told_on_cause

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


@app.command(rich_help_panel=PANEL)
def show(
    edition: EditionArg,
    variant: VariantOpt = None,
    expansions: WithOpt = None,
    output: Annotated[Format, typer.Option("--format", "-f", help="text: YAML with each value's origin; json for tools.")] = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the resolved edition and the origin of each value.")] = False,
) -> None:
    """Print the resolved edition as YAML, each value with the file and line that set it."""
    from ..interpreter.words.resolved import as_data, render_show

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
    from ..about import PACKAGE_DIR

    return text.replace(str(PACKAGE_DIR) + os.sep, "<kittens>/") if os.path.realpath(os.getcwd()) \
        != str(PACKAGE_DIR) else text.replace(str(PACKAGE_DIR) + os.sep, "")


@app.command(rich_help_panel=PANEL)
def diff(
    first: Annotated[str, typer.Argument(help="The ruleset to compare against (an edition file).", show_default=False, autocompletion=complete.editions)],
    second: Annotated[str, typer.Argument(help="The ruleset whose changes are shown (e.g. a house rule).", show_default=False, autocompletion=complete.editions)],
    variant: Annotated[Optional[str], typer.Option("--variant", help="Compare against this variant of the SECOND file.", autocompletion=complete.variants)] = None,
    expansions: WithOpt = None,
    output: FormatOpt = Format.text,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format json: the changes as a JSON list.")] = False,
) -> None:
    """Show what the second ruleset changes against the first: deck, cards, combos, parameters, setup."""
    from ..interpreter.words.resolved import diff as compare
    from ..interpreter.words.resolved import render_diff

    as_json = start("diff", output, as_json) == "json"
    before = _load_edition(first, None, "diff")
    after = _load_edition(second, variant, "diff", expansions)
    changes = compare(before, after)
    if as_json:
        echo(_shipped_paths(json.dumps([change.to_dict() for change in changes], indent=2,
                                             default=str)))
        return
    echo(_shipped_paths(render_diff(changes, before, after)), nl=False)


@app.command(rich_help_panel=PANEL)
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
    from ..interpreter.words.resolved import against_base
    from ..interpreter.words.rulesheet import render_rulesheet

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


@app.command("print", rich_help_panel=PANEL)
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
    from ..interpreter.words.resolved import against_base

    as_json = start("print", out_format, as_json) == "json"
    try:
        from ..authoring.printing import PrintError, choose_cards, render_pdf
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("fpdf", "fontTools"):
            raise
        fail(f"the print extra is not installed ({exc.name} is missing): pip install 'kittens-engine[print]'")
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


app.add_typer(new_app, name="new", rich_help_panel=PANEL)


def _scaffold(make, *args) -> None:
    from ..authoring.scaffold import ScaffoldError
    from ..interpreter.rules.load import RuleError

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
    from ..authoring.scaffold import house_rule

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
    from ..authoring.scaffold import expansion

    start("new", output, as_json)
    _scaffold(expansion, name, base, folder)


@app.command("test", rich_help_panel=PANEL)
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
    from ..authoring.scenario import ScenarioRunner, matches_keyword
    from ..interpreter.rules.check import scenario_files
    from ..interpreter.rules.load import UsageError

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
        if not as_json:  # deprecations, passing or not: `kittens upgrade` rewrites them
            for warning in outcome.warnings:
                echo(warning)
        if exitfirst and not outcome.passed:
            break
    failed = sum(not o.passed for o in outcomes)
    passed = len(outcomes) - failed
    if as_json:
        echo(json.dumps({"passed": passed, "failed": failed, "results": [
            {"path": o.path, "description": o.description, "passed": o.passed, "failures": o.failures,
             "warnings": o.warnings}
            for o in outcomes]}))
    else:
        echo(f"{passed} passed, {failed} failed")
    raise typer.Exit(EXIT_ERRORS if failed else EXIT_OK)


# -- the designer's toolchain (issue 13): docs, schemas, the language server ----------
@app.command(rich_help_panel=PANEL)
def docs(
    topic: Annotated[Optional[str], typer.Argument(help="A topic (effects, format, scenarios, ...); without one, the list of topics.", show_default=False, autocompletion=complete.topics)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """Read the guides installed with kittens: `kittens docs` lists the topics,
    `kittens docs effects` shows one in the terminal."""
    from ..authoring.topics import NoTopic, plain, read, title, topics

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


@app.command(rich_help_panel=PANEL)
def schema(
    write: Annotated[Optional[str], typer.Option("--write", help="Copy every schema into the folder DIR (made if needed), replacing older copies; `kittens new` puts them in schema/ beside its files, so `--write schema` there refreshes them.", show_default=False, metavar="DIR")] = None,
    kind: Annotated[Optional[str], typer.Argument(help="Print one kind's schema: cards, combos, edition, expansion or scenario.", show_default=False, autocompletion=complete.schema_kinds)] = None,
    output: FormatOpt = Format.text,
    as_json: JsonOpt = False,
) -> None:
    """The JSON Schemas of the rule files: list them, print one, or write them into a
    folder so editors find them however kittens is installed."""
    from ..authoring.schemas_out import SchemaError, schema_text, schemas, write_schemas

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
