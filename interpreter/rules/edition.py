"""Compiling an edition file (and each of its variants) into an :class:`Edition`.

Checks what a schema cannot: included files exist and have the right kind,
every card and combo named is defined, player ranges of the deck are sound,
effects are checked against the edition's full set of cards, setup can be
carried out at every allowed player count and leaves enough lethal cards for
the game to end, and every card in the deck can be used somehow.
"""

from __future__ import annotations

import os
from dataclasses import replace

from ..lang import primitives as P
from ..lang import syntax
from ..lang.checker import CheckEnv
from ..lang.cost import edition_limits
from ..lang.diagnostics import ERROR, WARNING, Diagnostic, did_you_mean
from ..lang.loader import Document
from ..lang.procedures import expand, expand_record
from . import cardset, edition_rules, plugins
from .compose import Layer, Layered, by_marks, is_by_marks
from .elsewhere import shipped_cards
from .library import check_effects, declared_zones, zone_env
from .model import Check, Edition, Origin, SetupStep
from .setup import dead_cards, dry_run
from .stack import Stack, resolve
from .workspace import Workspace, base_names


def compile_edition(ws: Workspace, path: str, expansions: tuple = (), variants=None) -> Edition | None:
    """Compile an edition and its variants, with ``expansions`` (paths) applied in order.

    An expansion file given as ``path`` is compiled on the base it names, and an
    edition that `extends` another on that one (see stack.py). ``variants``: the
    names of the variants to compile (None: all of them).

    Every file of the stack may declare variants, and they survive being built
    on: a house rule extending the Original has the Original's variants, each
    switched on below the house rule's own changes. The variants of the file on
    top are checked like the rest of it; a variant of a file further down is
    kept only where it still applies (it compiles cleanly with everything
    above it), and ``Edition.unavailable`` says why the others do not.
    None when there are errors that stop compilation.
    """
    stack = resolve(ws, path, tuple(expansions))  # the files read and walked once, for every view
    base = _compile_view(ws, stack, ())
    if base is None:
        return None
    files = stack.files
    top = os.path.realpath(files[-1].path) if files else None
    compiled, unavailable = {}, {}
    chosen = stack.chosen_variants()  # switched on by a house rule's own `variant:`
    sources = stack.variant_sources()
    for name, owner in sources.items():
        if (variants is not None and name not in variants) or name in chosen:
            continue
        if owner == top:
            view = _compile_view(ws, stack, ((name, owner),))
            if view is None:
                return None
        else:  # a variant from below: checked quietly, dropped where it no longer applies
            before = ws.snapshot()
            view = _compile_view(ws, stack, ((name, owner),))
            errors = ws.restore(before)
            if view is None or errors:
                unavailable[name] = (owner, errors[0].render() if errors else "it does not compile")
                continue
        compiled[name] = view
    known: dict = {}  # (view, players) -> its dead cards, found once
    for view in [base, *(compiled[name] for name, owner in sources.items()
                         if owner == top and name in compiled)]:
        _dead_cards(ws, view, compiled, known)
    return replace(base, variants=compiled, unavailable=unavailable)


def _dead_cards(ws: Workspace, edition: Edition, variants: dict, known: dict) -> None:
    """Warn about player counts at which a card is dealt but nothing in play uses it (a
    Defuse with no kitten in the pile) when no variant is made for that count either;
    where one is, `kittens list` and `kittens run` point at it (see :func:`variant_for`)."""
    for players in range(edition.players[0], edition.players[1] + 1):
        dead = _dead_at(edition, players, known)
        if not dead or variant_for(edition, variants, players, known):
            continue
        card_id, users = next(iter(dead.items()))
        origin = edition.origins.get("players") or edition.origin
        prefix = f"in variant '{edition.variant}': " if edition.variant else ""
        ws.report(Diagnostic(path=origin.path, line=origin.line, column=origin.column or 1, severity=WARNING,
                             code="dead-card",
                             message=f"{prefix}with {players} players '{card_id}' is dealt but does nothing: "
                             f"the cards that use it ({', '.join(users)}) never reach the game; leave "
                             f"{players} players out of `players`, or keep a card that uses it in the game",
                             source_line=_line_of(origin)))


def variant_for(edition: Edition, variants: dict, players: int, known: dict | None = None) -> str | None:
    """The first variant that plays ``players`` with no card left useless, when the edition
    as it is leaves one useless at that count (Imploding Kittens with two players).
    ``known``: dead cards found so far, by view and player count (see _dead_at)."""
    for name, view in variants.items():
        if view is not edition and view.players[0] <= players <= view.players[1] \
                and not _dead_at(view, players, {} if known is None else known):
            return name
    return None


def _dead_at(edition: Edition, players: int, known: dict) -> dict:
    """dead_cards(edition, players), found once per view and count while ``known`` lives
    (its views with it: an id is not reused while its object lives)."""
    key = (id(edition), players)
    if key not in known:
        known[key] = (edition, dead_cards(edition, players, known.setdefault("names", {})))
    return known[key][1]


def _line_of(origin: Origin) -> str:
    try:
        with open(origin.path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return ""
    return lines[origin.line - 1] if 0 < origin.line <= len(lines) else ""


def _compile_view(ws: Workspace, stack: Stack, variants: tuple) -> Edition | None:
    """The edition with one variant switched on (or none): the resolved stack layered
    with it, and compiled."""
    doc = stack.layer(ws, variants)
    if doc is None:
        return None
    data = doc.data
    sources = cardset.libraries(ws, doc)
    libraries = [source.library for source in sources]
    cards, combos = cardset.gather(ws, sources, cardset.settled_by_house_rules(doc))
    cards, patches = cardset.patch(ws, doc, cards, cardset.replacements(sources, cards))
    combos, combo_patches = cardset.patch_combos(ws, doc, combos)
    card_params = cardset.card_params(ws, sources)
    cardset.unknown_params(ws, doc, card_params)
    zones = _zones(ws, doc, libraries)
    param_types = _param_types({**{n: v for n, (v, _o) in card_params.items()}, **data.get("params", {})})
    for name in param_types:
        if name in P.ENGINE_RULES:
            ws.report(doc.diagnostic(("params", name), "redefined-name",
                                     f"'{name}' is an engine rule: set it under `rules:`, not `params:`",
                                     key=True))
    counters = edition_rules.counters(ws, doc)
    env = CheckEnv(card_ids=frozenset(cards), tags=frozenset(t for c in cards.values() for t in c.tags),
                   rules={name: spec[0] for name, spec in P.ENGINE_RULES.items()} | param_types,
                   **zone_env(zones), limits=edition_limits(data, card_params),
                   counters=frozenset(counters),
                   elsewhere={card_id: where for card_id, where in shipped_cards().items() if card_id not in cards})
    env.procedures = edition_rules.procedures(ws, doc, env)  # before the effects that call them
    for lib in libraries:
        check_effects(ws, lib, env)
    cardset.check_patches(ws, patches, cards, env)
    cardset.check_combo_patches(ws, combo_patches, combos, env)
    turn_draw = ws.parse(doc, ("turn", "draw"))
    ws.check(doc, ("turn", "draw"), turn_draw, env, P.TURN,
             base_names() | {zone: P.ZONE for zone in env.zones})
    checks = _checks(ws, doc, env, zones)
    phases = (edition_rules.triggers(ws, doc, env, zones), counters, edition_rules.scoring(ws, doc, env),
              edition_rules.actions(ws, doc, env), edition_rules.restrictions(ws, doc, env))
    cards = _skinned(ws, doc, cards)
    _check_card_refs(ws, cards, zones)
    compiler = _ViewCompiler(ws, doc, cards, combos, env, turn_draw, zones, checks, card_params, phases)
    edition = compiler.compile(variants[0][0] if variants else None)
    if edition is None or ws.has_errors(doc.paths):
        return None
    return edition


def _checks(ws: Workspace, doc, env: CheckEnv, zones: dict) -> tuple:
    """The edition's state checks, parsed and checked once."""
    names = base_names() | {zone: P.ZONE for zone in env.zones}
    found = []
    for index, raw in enumerate(doc.data.get("checks", [])):
        path = ("checks", index)
        condition = ws.parse(doc, path + ("if",), expression=True)
        ws.check(doc, path + ("if",), condition, env, P.TURN, names, pure=True, expect=P.BOOL)
        effect = ws.parse(doc, path + ("effect",))
        ws.check(doc, path + ("effect",), effect, env, P.TURN, names)
        if condition is not None and effect is not None:
            found.append(Check(raw["id"], raw["text"], condition, effect,
                               Origin(doc.route(path)[0].path, doc.mark(path).line)))
    return tuple(found)


def _skinned(ws: Workspace, doc, cards: dict) -> dict:
    """Cards with the titles and texts of the edition's `skin` (a re-skin changes nothing else)."""
    skin = doc.data.get("skin", {})
    if not skin:
        return cards
    out = dict(cards)
    for card_id, new in skin.items():
        if card_id not in cards:
            ws.report(doc.diagnostic(("skin", card_id), "unknown-card",
                                     f"no included library defines the card '{card_id}'"
                                     f"{did_you_mean(card_id, cards)}", key=True))
            continue
        card = cards[card_id]
        skin_doc, real = doc.route(("skin", card_id))
        out[card_id] = replace(card, title=new.get("title", card.title), text=new.get("text", card.text),
                               raw={**(card.raw or {}), **new},
                               changed_at=card.changed_at + (Origin(skin_doc.path, skin_doc.mark(real).line),))
    return out


def _check_card_refs(ws: Workspace, cards: dict, zones: dict) -> None:
    """Zones and cards that card keys name (`returns_to`, `decoy`, `stands_for`) must exist."""
    shared = {name for name, spec in zones.items() if not spec.get("per_player")}
    tags = {tag for card in cards.values() for tag in card.tags}
    for card_id, card in cards.items():
        problems = []
        for key in ("returns_to", "decoy"):
            zone = getattr(card, key)
            if zone is not None and zone not in shared:
                problems.append((key, f"`{key}` names '{zone}', which is not a shared zone of this "
                                      f"edition{did_you_mean(zone, shared, 'declare it under `zones:`')}"))
        if card.stands_for is not None:
            titles, tag, excluded = card.stands_for
            for other in sorted((titles or frozenset()) | excluded):
                if other not in cards:
                    problems.append(("stands_for", f"`stands_for` names '{other}', which no included "
                                                   f"library defines{did_you_mean(other, cards)}"))
            if tag is not None and tag not in tags:
                problems.append(("stands_for", f"`stands_for` names the tag '{tag}', which no card "
                                               f"carries{did_you_mean(tag, tags)}"))
        for key, message in problems:
            ws.report(Diagnostic(path=card.origin.path, line=card.origin.line, column=1, severity=ERROR,
                                 code="unknown-zone"
                                 if key != "stands_for" else "unknown-card", message=f"'{card_id}': {message}"))


def _zones(ws: Workspace, doc: Document, libraries: list) -> dict:
    """Extra zones: the edition's own and its libraries'; one name, one kind of zone."""
    zones: dict[str, dict] = {}
    where: dict[str, str] = {}
    sources = [(name, spec, lib.doc.path) for lib in libraries
               for name, spec in lib.visible_zones().items()]
    own = declared_zones(ws, doc)
    for name, spec, path in sources + [(n, s, doc.path) for n, s in own.items()]:
        if name in zones and zones[name] != spec:
            ws.report(doc.diagnostic(("zones", name) if name in own else ("include",), "duplicate-id",
                                     f"zone '{name}' is declared public in one file and hidden in "
                                     f"another ({where[name]}): make them agree", key=name in own))
            continue
        zones.setdefault(name, spec)
        where.setdefault(name, path)
    return zones


def _param_types(params: dict) -> dict:
    """Edition parameters as the checker sees them: name -> bool or int."""
    return {name: (P.BOOL if isinstance(value, bool) else P.INT) for name, value in params.items()}


class _ViewCompiler:
    """Compiles the edition as seen through one variant (or none)."""

    def __init__(self, ws, doc: Layered, cards, combos, env, turn_draw, zones, checks=(),
                 card_params=None, phases=((), {}, None, (), ())):
        self.ws, self.doc, self.cards, self.combos = ws, doc, cards, combos
        self.triggers, self.counters, self.scoring, self.actions, self.restrictions = phases
        self.card_params = card_params or {}
        self.env, self.turn_draw, self.zones, self.checks = env, turn_draw, zones, checks
        self._marks_checked: bool | None = None  # whether the edition's `marks` are sound

    def _limited_plays(self, data: dict, combos: list) -> None:
        """Every id a restriction's `for:` names is a card, combo or free action here."""
        known = set(self.cards) | {combo.id for combo in combos} | {action.id for action in self.actions}
        for index, raw in enumerate(data.get("restrictions", []) or []):
            for place, rule_id in enumerate(raw.get("for", []) or []):
                if rule_id not in known:
                    self.ws.report(self.doc.diagnostic(
                        ("restrictions", index, "for", place), "unknown-card",
                        f"no card, combo or free action of this edition is called '{rule_id}'"
                        f"{did_you_mean(rule_id, known)}"))

    def compile(self, variant: str | None) -> Edition | None:
        """The compiled edition; ``variant`` names the variant switched on in the
        document (its parts are already merged in), for messages and `Edition.variant`."""
        doc, data = self.doc, self.doc.data
        players, players_path = data["players"], ("players",)
        lo, hi = players["min"], players["max"]
        if lo > hi:
            self.ws.report(doc.diagnostic(players_path, "bad-player-range",
                                          f"`min` ({lo}) is greater than `max` ({hi})"))
        deck = self._deck(lo, hi)
        combo_ids, combos_path = data.get("combos"), ("combos",)
        combos = []
        for index, combo_id in enumerate(combo_ids or []):
            if combo_id not in self.combos:
                self.ws.report(doc.diagnostic(combos_path + (index,), "unknown-combo",
                                              f"no included combo file defines '{combo_id}'"
                                              f"{did_you_mean(combo_id, self.combos)}"))
            else:
                combos.append(self.combos[combo_id])
        self._limited_plays(data, combos)
        params = {**{name: value for name, (value, _o) in self.card_params.items()},
                  **data.get("params", {})}
        rules: dict[str, object] = {name: spec[1] for name, spec in P.ENGINE_RULES.items()}
        rules.update(data.get("rules", {}))
        env = CheckEnv(self.env.card_ids, self.env.tags,
                       {**self.env.rules, **_param_types(params)},
                       self.env.mentioned_cards, self.env.zones, self.env.player_zones,
                       counters=self.env.counters, procedures=self.env.procedures, elsewhere=self.env.elsewhere)
        setup, setup_path = self._setup(env)
        teams = self._teams(lo)
        if self.ws.has_errors(doc.paths):  # the whole-edition checks need sound parts
            return None
        cards = self._switches(self.cards, params)
        combos = list(self._switches({combo.id: combo for combo in combos}, params).values())
        procs = self.env.procedures  # written out in every effect that calls them: the game never sees them
        cards = {card_id: expand_record(card, procs) for card_id, card in cards.items()}
        combos = [expand_record(combo, procs) for combo in combos]
        setup = tuple(expand_record(step, procs) for step in setup)
        checks, triggers, actions, restrictions = (tuple(expand_record(r, procs) for r in records) for records in
                                                   (self.checks, self.triggers, self.actions, self.restrictions))
        scoring = expand_record(self.scoring, procs) if self.scoring is not None else None
        edition = Edition(id=data["id"], name=data["name"], players=(lo, hi), cards=cards,
                          deck=deck, combos=tuple(combos), setup=setup, rules=rules, params=params,
                          turn_draw=expand(self.turn_draw, procs),
                          win=data["win"] if isinstance(data["win"], str) else "score",
                          zones=self.zones, triggers=triggers, counters=self.counters,
                          scoring=scoring, actions=actions, restrictions=restrictions,
                          origin=Origin(doc.path, 1), variant=variant, checks=checks, teams=teams,
                          teams_together=bool(data.get("teams", {}).get("together", False)),
                          teams_dealt=str(data.get("teams", {}).get("dealt", "in_turn")),
                          kind="expansion" if doc.expansions() else "edition",
                          expansions=tuple(layer.path for layer in doc.expansions()),
                          description=" ".join(str(data.get("description", "")).split()),
                          variant_description=" ".join(str(doc.variant.data.get("description", "")).split())
                          if doc.variant is not None else "",
                          sources=tuple(doc.paths), extends=self._extends(),
                          origins=self._origins(deck, combo_ids or [], params, setup),
                          data=dict(data), procedures=dict(procs))
        self._dry_runs(edition, setup_path)
        self._unplayable(edition)
        return edition

    def _switches(self, records: dict, params: dict) -> dict:
        """Cards or combos whose `nopeable` names a parameter (`rules.NAME`), with its value."""
        out = None
        for record_id, record in records.items():
            if not isinstance(record.nopeable, str):
                continue
            name = record.nopeable.removeprefix("rules.")
            value = params.get(name)
            if not isinstance(value, bool):
                origin = record.origin
                problem = f"`nopeable: {record.nopeable}` names no parameter{did_you_mean(name, params)}" \
                    if name not in params else f"`nopeable: {record.nopeable}` must name a true-or-false " \
                                               f"parameter, but '{name}' is {value!r}"
                self.ws.report(Diagnostic(path=origin.path, line=origin.line, column=1, severity=ERROR,
                                          code="unknown-rule",
                                          message=f"'{record_id}': {problem}", source_line=_line_of(origin)))
                value = True
            out = out if out is not None else dict(records)
            out[record_id] = replace(record, nopeable=value)
        return records if out is None else out

    def _teams(self, fewest_players: int) -> int:
        """How many teams; a team win condition needs teams, and every team a player."""
        data = self.doc.data
        count = data.get("teams", {}).get("count", 0)
        if data.get("win") == "last_team_standing" and not count:
            self.ws.report(self.doc.diagnostic(("win",), "bad-value",
                                               "`last_team_standing` needs teams: add `teams: {count: 2}`"))
        if count > fewest_players:
            self.ws.report(self.doc.diagnostic(("teams", "count"), "bad-player-range",
                                               f"{count} teams need at least {count} players, but the "
                                               f"edition allows {fewest_players}: raise `players.min`"))
        return count

    # -- origins --------------------------------------------------------------
    def _extends(self) -> str | None:
        """The edition file the top file builds on (the house rule's `extends`)."""
        top: Layer = self.doc.base
        for layer, kind in reversed(self.doc.layers):
            if kind != "expansion":
                top = layer
                break
        extends = top.data.get("extends")
        return plugins.locate_edition(extends, os.path.dirname(top.path), self.ws.sources.exists) if extends else None

    def _origin(self, path: tuple) -> Origin:
        doc, real = self.doc.route(path)
        mark = doc.mark(real)
        return Origin(doc.path, mark.line, mark.column)

    def _origins(self, deck, combo_ids, params, setup) -> dict:
        """Where each value of the compiled view came from (see Edition.origins)."""
        data = self.doc.data
        origins = {"players": self._origin(("players",)), "turn": self._origin(("turn",)),
                   "win": self._origin(("win",)), "id": self._origin(("id",)),
                   "teams": self._origin(("teams",)) if "teams" in data else None}
        origins.update({f"deck.{card_id}": self._origin(("deck", card_id)) for card_id in deck})
        for index, combo_id in enumerate(combo_ids):
            origins[f"combos.{combo_id}"] = self._origin(("combos", index))
        for name in params:
            origins[f"params.{name}"] = self._origin(("params", name)) \
                if name in data.get("params", {}) else self.card_params[name][1]
        for name in P.ENGINE_RULES:
            origins[f"rules.{name}"] = self._origin(("rules", name)) if name in data.get("rules", {}) else None
        for index, step in enumerate(setup):
            origins[f"setup.{index}"] = step.origin
        for name, (layer, path) in self.doc.moves.items():
            mark = layer.mark(path)
            origins[f"setup.moved.{name}"] = Origin(layer.path, mark.line, mark.column)
        return origins

    # -- deck -----------------------------------------------------------------
    def _deck(self, lo, hi) -> dict:
        entries = {card_id: (count, ("deck", card_id)) for card_id, count in self.doc.data["deck"].items()}
        deck = {}
        for card_id, (count, path) in entries.items():
            if card_id not in self.cards:
                self.ws.report(self.doc.diagnostic(path, "unknown-card",
                                                   f"no included library defines the card '{card_id}'"
                                                   f"{did_you_mean(card_id, self.cards)}", key=True))
                continue
            if is_by_marks(count):
                count = self._by_marks(count, path, lo, hi)
            deck[card_id] = self._ranges(count, path, lo, hi)
        return deck

    def _by_marks(self, count: dict, path: tuple, lo: int, hi: int):
        """A count by printed mark, as counts by player range (0 where the marks are unsound)."""
        marks = self.doc.data.get("marks")
        if not marks:
            self.ws.report(self.doc.diagnostic(path, "bad-value", "this count is given by mark, but the "
                                               "edition has no `marks:` saying which marks are used "
                                               "at which player counts"))
            return 0
        known = {mark for used in marks.values() for mark in used}
        for mark in count:
            if mark not in known:
                self.ws.report(self.doc.diagnostic(path + (mark,), "bad-value",
                                                   f"no player count uses the mark '{mark}'"
                                                   f"{did_you_mean(mark, known)}", key=True))
        if self._marks_checked is None:  # the mark ranges themselves, checked once
            before = len(self.ws.diagnostics)
            self._ranges({key: 0 for key in marks}, ("marks",), lo, hi)
            self._marks_checked = len(self.ws.diagnostics) == before
        return by_marks(count, marks) if self._marks_checked else 0

    def _ranges(self, count, path, lo, hi) -> tuple:
        if isinstance(count, int):
            return ((lo, hi, count),)
        ranges: list[tuple] = []
        for key, number in count.items():
            first, _, last = key.partition("-")
            a, b = int(first), int(last or first)
            if a > b:
                self.ws.report(self.doc.diagnostic(path + (key,), "bad-player-range",
                                                   f"the range '{key}' runs backwards: write '{b}-{a}'",
                                                   key=True))
                continue
            for other_a, other_b, _n in ranges:
                if a <= other_b and other_a <= b:
                    self.ws.report(self.doc.diagnostic(path + (key,), "bad-player-range",
                                                       f"the range '{key}' overlaps '{other_a}-{other_b}'",
                                                       key=True))
            ranges.append((a, b, number))
        missing = [n for n in range(lo, hi + 1) if not any(a <= n <= b for a, b, _ in ranges)]
        if missing and lo <= hi:
            shown = ", ".join(str(n) for n in missing)
            self.ws.report(self.doc.diagnostic(path, "bad-player-range",
                                               f"no count is given for {shown} player(s): add a range "
                                               "that covers them (0 if the card is not used)"))
        return tuple(ranges)

    # -- setup ----------------------------------------------------------------
    def _setup(self, env) -> tuple[tuple, tuple]:
        steps_data, setup_path = self.doc.data["setup"], ("setup",)
        players = (self.doc.data["players"]["min"], self.doc.data["players"]["max"])
        steps = []
        for index, raw in enumerate(steps_data):
            path = setup_path + (index,)
            found = [(k, v) for k, v in raw.items() if k != "name"]
            if len(found) != 1:
                self.ws.report(self.doc.diagnostic(
                    path, "bad-value", f"this step has {len(found)} kinds of step ("
                    f"{', '.join(k for k, _v in found) or 'none'}): write each step as its own "
                    "list item, `- deal: ...`, with at most a `name` beside it"))
                continue
            (kind, value), = found
            origin = self._origin(path)
            if kind == "set_aside":
                for position, card_id in enumerate(value):
                    self._known_card(card_id, path + (kind, position))
                steps.append(SetupStep(kind, cards=tuple(value), origin=origin))
            elif kind in ("place", "remove_random"):
                for position, card_id in enumerate(value.get("cards", ())):
                    self._known_card(card_id, path + (kind, "cards", position))
                zone = value.get("zone")
                if kind == "place" and (zone not in self.zones or self.zones[zone].get("per_player")):
                    fix = did_you_mean(str(zone), self.zones, "declare it under `zones:`")
                    self.ws.report(self.doc.diagnostic(path + (kind, "zone"), "unknown-zone",
                                                       f"no shared zone is called '{zone}'{fix}"))
                if kind == "place" and ("cards" in value) == ("count" in value):
                    self.ws.report(self.doc.diagnostic(path + (kind,), "bad-step",
                                                       "give either `cards` or `count`, not both or neither"))
                count = self._count(value["count"], path + (kind, "count"), env, players) \
                    if "count" in value else None
                steps.append(SetupStep(kind, cards=tuple(value.get("cards", ())), count=count,
                                       zone=zone, origin=origin))
            elif kind in ("deal", "put_back"):
                card_id = value.get("card")
                if card_id is not None:
                    self._known_card(card_id, path + (kind, "card"))
                count = self._count(value["count"], path + (kind, "count"), env, players)
                to = self._count(value["to"], path + (kind, "to"), env, players) if "to" in value else None
                zone = value.get("zone") if kind == "deal" else None
                if zone is not None and not self.zones.get(zone, {}).get("per_player"):
                    mine = [name for name, spec in self.zones.items() if spec.get("per_player")]
                    fix = did_you_mean(str(zone), mine, "declare it under `zones:` with `per_player: true`")
                    self.ws.report(self.doc.diagnostic(path + (kind, "zone"), "unknown-zone",
                                                       f"no per-player zone is called '{zone}'{fix}"))
                    zone = None
                steps.append(SetupStep(kind, cards=(card_id,) if card_id else (), count=count,
                                       or_fewer=value.get("or_fewer", False), origin=origin, to=to, zone=zone))
            else:
                steps.append(SetupStep(kind, zone=value, origin=origin))
        return tuple(steps), setup_path

    def _known_card(self, card_id: str, path: tuple) -> None:
        if card_id not in self.cards:
            self.ws.report(self.doc.diagnostic(path, "unknown-card",
                                               f"no included library defines the card '{card_id}'"
                                               f"{did_you_mean(card_id, self.cards)}"))

    def _count(self, value, path: tuple, env, players: tuple):
        if isinstance(value, int):
            return value
        if isinstance(value, dict):
            return self._ranges(value, path, *players)
        tree = self.ws.parse(self.doc, path, expression=True)
        self.ws.check(self.doc, path, tree, env, P.SETUP,
                      {"players": P.INT, "pile": P.INT, "draw_pile": P.ZONE},
                      pure=True, expect=P.INT)
        return tree

    # -- whole-edition checks -------------------------------------------------
    def _dry_runs(self, edition: Edition, setup_path: tuple) -> None:
        reported = set()
        lo, hi = edition.players
        for players in range(lo, hi + 1):
            problems, _pile = dry_run(edition, players)
            for problem in problems:
                if (problem.step, problem.code) in reported:
                    continue
                reported.add((problem.step, problem.code))
                where = setup_path if problem.step is None else setup_path + (problem.step,)
                key = problem.step is None
                prefix = f"in variant '{edition.variant}': " if edition.variant else ""
                self.ws.report(self.doc.diagnostic(where, problem.code, prefix + problem.message, key=key))

    def _unplayable(self, edition: Edition) -> None:
        variant = edition.variant
        mentioned = self.env.mentioned_cards
        through_zones = _placed_in_read_zones(edition)
        for card_id, ranges in edition.deck.items():
            if not any(count for _a, _b, count in ranges):
                continue
            card = edition.cards[card_id]
            # a hook in place of a draw is a use, as `on_draw` is: the card acts by lying
            # before a player, not by being played; a marker placed in a zone that rules
            # read is used through that zone; `does_nothing: true` says it is meant so
            if (card.when != "never" or card.on_draw is not None or card.instead_of_draw is not None
                    or card_id in mentioned or card_id in through_zones
                    or (card.raw or {}).get("does_nothing") is True
                    or any(combo.may_include(card) for combo in edition.combos)):
                continue
            path = ("deck", card_id)
            suffix = f" in variant '{variant}'" if variant else ""
            self.ws.report(self.doc.diagnostic(
                path, "unplayable-card",
                f"'{card_id}' can never be played or used{suffix}: it is `when: never`, has no "
                "`on_draw` or `instead_of_draw`, no effect names it, no enabled combo can include it "
                "and setup places it in no zone a rule reads; if it does nothing on purpose, give it "
                "`does_nothing: true`",
                key=True, severity=WARNING))


def _placed_in_read_zones(edition: Edition) -> set:
    """The cards setup places in a zone (`place: {cards: [...], zone: Z}`) that some effect,
    condition or score of the edition reads, by name or through `zone_of`."""
    trees: list = [edition.turn_draw]
    for record in (*edition.cards.values(), *edition.combos, *edition.checks, *edition.triggers,
                   *edition.actions, *edition.restrictions):
        trees += [getattr(record, key, None) for key in
                  ("requires", "effect", "on_draw", "instead_of_draw", "condition", "allows")]
        trees += [tree for _name, tree in getattr(record, "choose", ()) or ()]
    if edition.scoring is not None:
        trees += [edition.scoring.score, edition.scoring.ends_when, edition.scoring.tie_break]
    read = set()
    for node in syntax.walk(tuple(tree for tree in trees if tree is not None)):
        if isinstance(node, syntax.Name):
            read.add(node.id)
        elif isinstance(node, syntax.StrLit):  # zone_of(p, "front") names a zone by a string
            read.add(node.value)
    return {card_id for step in edition.setup if step.kind == "place" and step.zone in read
            for card_id in step.cards}
