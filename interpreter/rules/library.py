"""Card and combo libraries: compiled records with parsed, checked effects."""

from __future__ import annotations

import os

from ..lang import primitives as P
from ..lang.checker import CheckEnv
from ..lang.diagnostics import WARNING, did_you_mean, with_article
from ..lang.loader import Document
from ..lang.names import SHADOWS, shadowed_primitive
from .libraries import Library
from .model import Card, Combo, Origin
from .workspace import Workspace, base_names, report_choice_name

MAX_INCLUDE_DEPTH = 32


def resolve(base_doc: Document, relative: str) -> str:
    """The file an `include` or `uses` names: a path relative to the naming file, or the
    name of a shipped card library (`uses: [original]`), so that a published expansion
    can build on the shipped cards wherever kittens is installed."""
    if "/" not in relative and "\\" not in relative and not relative.endswith((".yaml", ".yml")):
        from ...about import RULEBOOK_DIR

        shipped = os.path.join(str(RULEBOOK_DIR), f"{relative}.yaml")
        if os.path.isfile(shipped):
            return shipped
    return os.path.normpath(os.path.join(os.path.dirname(base_doc.path), relative))


def load_library(ws: Workspace, path: str, *, from_doc: Document | None = None,
                 from_path: tuple = ()) -> Library | None:
    """Load and check a library once; report include problems at ``from_doc``/``from_path``."""
    key, shown = os.path.realpath(path), os.path.normpath(path)
    known = ws.libraries.get(key)
    if known is not None:
        return known
    problem = _include_problem(ws, key, shown, from_doc, from_path)
    if problem:
        if from_doc is not None:
            code, message = problem
            ws.report(from_doc.diagnostic(from_path, code, message))
        return None
    doc, kind = ws.load(shown)
    if doc is None or kind is None:
        return None
    if kind not in ("cards", "combos"):
        if from_doc is not None:
            ws.report(from_doc.diagnostic(from_path, "wrong-kind",
                                          f"'{from_doc.value_at(from_path)}' is {with_article(kind)} file; only "
                                          "cards and combos files can be included here"))
        return None
    identity = _identity(ws, doc)
    same = ws.libraries.same_content(identity, kind)
    if same is not None:
        # the same library reached at two places (a checkout and an installed kittens, say):
        # one library, not every card defined twice
        ws.libraries.add(key, same)
        return same
    lib = Library(shown, kind, doc)
    ws.libraries.add(key, lib, identity)
    with ws.libraries.including(key):
        _load_uses(ws, lib)
    lib.zones = declared_zones(ws, doc)
    lib.params = {name: (value, ("params", name)) for name, value in doc.data.get("params", {}).items()}
    _compile_records(ws, lib, ((kind, kind, False),))
    _check_shadowing(ws, lib)
    visible = lib.visible_cards()
    own_only = lib.kind == "combos" and not lib.uses  # nothing says which cards exist
    env = CheckEnv(card_ids=None if own_only else frozenset(visible),
                   tags=None if own_only else frozenset(t for c, _l, _p in visible.values() for t in c.tags),
                   rules=None, **zone_env(lib.visible_zones()))
    check_effects(ws, lib, env)
    return lib


def _identity(ws: Workspace, doc: Document, depth: int = 0) -> tuple:
    """What makes two library files the same library: their text, and the identity of
    every library they use (a relative `uses` may reach different files from each).
    Computed once per file; a `uses` cycle counts as itself (it is reported elsewhere)."""
    key = os.path.realpath(doc.path)
    known = ws.libraries.identity(key)
    if known is not None:
        return known
    if depth >= MAX_INCLUDE_DEPTH:  # too deep to be a real library (reported by the loader)
        return ("deep", key)
    ws.libraries.set_identity(key, ("cycle", key))  # while the uses below are looked at
    used = []
    for relative in doc.data.get("uses", []) if isinstance(doc.data, dict) else ():
        path = resolve(doc, relative)
        readable = path.endswith((".yaml", ".yml")) and not ws.outside(path) and ws.sources.exists(path)
        other = ws.load(path)[0] if readable else None
        used.append(_identity(ws, other, depth + 1) if other is not None else ("missing", relative))
    identity = (doc.text, tuple(used))
    ws.libraries.set_identity(key, identity)
    return identity


#: names a declared zone may not take: builtins, `this`, the setup's own zone
RESERVED_ZONE_NAMES = frozenset(P.BUILTIN_NAMES) | {"this", "set_aside", "players"}


def zone_env(zones: dict) -> dict:
    """CheckEnv arguments for a set of declared zones: shared ones are named bare,
    per-player ones through ``zone_of(player, "name")``."""
    return {"zones": frozenset(n for n, spec in zones.items() if not spec.get("per_player")),
            "player_zones": frozenset(n for n, spec in zones.items() if spec.get("per_player"))}


def declared_zones(ws: Workspace, doc: Document) -> dict:
    """The extra zones a file declares: name -> {"public": bool}; bad names reported."""
    zones = {}
    for name, spec in doc.data.get("zones", {}).items():
        if name in RESERVED_ZONE_NAMES:
            ws.report(doc.diagnostic(("zones", name), "redefined-name",
                                     f"'{name}' is already a name effects use: pick another zone name",
                                     key=True))
            continue
        if (shadowing := shadowed_primitive(name)) is not None:  # the zone's name wins
            ws.report(doc.diagnostic(("zones", name), SHADOWS, shadowing, key=True, severity=WARNING))
        zones[name] = {"public": spec.get("public", True), "per_player": spec.get("per_player", False)}
    return zones


def _include_problem(ws: Workspace, key: str, shown: str, from_doc, from_path) -> tuple | None:
    """Why a file cannot be included here, as (code, message), or None."""
    named = from_doc.value_at(from_path) if from_doc is not None else shown
    if ws.libraries.depth >= MAX_INCLUDE_DEPTH:
        return "include-cycle", (f"includes nest more than {MAX_INCLUDE_DEPTH} files deep: "
                                 "include the libraries from the edition directly")
    if ws.libraries.in_chain(key):
        return "include-cycle", f"'{named}' includes this file back: remove one of the two references"
    if from_doc is not None:  # before anything about the file is looked at, even whether it exists
        refused = ws.refusal(from_doc, from_path, shown)
        if refused:
            return "outside-project", refused
    if not shown.endswith((".yaml", ".yml")):  # never read other files (secrets) through an include
        return "unknown-file", f"'{named}' is not a rule file: only .yaml and .yml files can be included"
    if not ws.sources.held(key) and os.path.exists(key) and not os.path.isfile(key):
        # a pipe would block, a folder has no text
        return "unknown-file", (f"'{named}' is not a regular file (it is a folder, a pipe or a "
                                "device): include a rule file")
    if not ws.sources.exists(key):
        folder = os.path.dirname(shown)
        nearby = [n for n in os.listdir(folder) if n.endswith((".yaml", ".yml"))] \
            if os.path.isdir(folder) else []
        return "unknown-file", (f"no file '{named}' (looked for {shown})"
                                f"{did_you_mean(os.path.basename(shown), nearby)}")
    return None


def _load_uses(ws: Workspace, lib: Library) -> None:
    for index, relative in enumerate(lib.doc.data.get("uses", [])):
        used = load_library(ws, resolve(lib.doc, relative), from_doc=lib.doc, from_path=("uses", index))
        if used is None:
            continue
        if used.kind != "cards":
            ws.report(lib.doc.diagnostic(("uses", index), "wrong-kind",
                                         f"'{relative}' is {with_article(used.kind)} file; `uses` takes cards files"))
        else:
            lib.uses.append(used)


def _check_shadowing(ws: Workspace, lib: Library) -> None:
    """A card may not redefine a card of a library it uses."""
    inherited = {}
    for used in lib.uses:
        inherited.update(used.visible_cards())
    for card_id, (card, path) in lib.cards.items():
        if card.overrides and card_id not in inherited:
            ws.report(lib.doc.diagnostic(path + ("overrides",), "nothing-to-override",
                                         f"'{card_id}' says `overrides: true` but no library in "
                                         "`uses` defines it: add the library it changes to `uses`, "
                                         "or drop `overrides`"))
        elif card_id in inherited and not card.overrides:
            ws.report(lib.doc.diagnostic(path + ("id",), "duplicate-id",
                                         f"card '{card_id}' is already defined at "
                                         f"{inherited[card_id][0].origin}: pick a new id"))


#: where an edition or expansion defines cards and combos of its own: (key, kind, replaces)
INLINE_SECTIONS = (("define_cards", "cards", False), ("replace_cards", "cards", True),
                   ("define_combos", "combos", False))


def inline_library(ws: Workspace, doc: Document) -> Library:
    """The cards and combos a rule file defines itself (`define_cards`, `replace_cards`,
    `define_combos`); their effects are checked with the edition's."""
    lib = Library(doc.path, "inline", doc)
    _compile_records(ws, lib, INLINE_SECTIONS)
    return lib


def _compile_records(ws: Workspace, lib: Library, sections: tuple) -> None:
    for key, section, replaces in sections:
        _compile_section(ws, lib, key, section, replaces)


def _compile_section(ws: Workspace, lib: Library, key: str, section: str, replaces: bool) -> None:
    doc = lib.doc
    skipped: frozenset = getattr(doc, "skipped", frozenset())  # records the schema refused
    for index, raw in enumerate(doc.data.get(key, [])):
        path = (key, index)
        if path in skipped:
            continue
        record_id = raw["id"]
        if record_id in (lib.cards if section == "cards" else lib.combos):
            first = (lib.cards if section == "cards" else lib.combos)[record_id][0].origin
            ws.report(doc.diagnostic(path + ("id",), "duplicate-id",
                                     f"'{record_id}' is already defined at {first}: ids must be unique"))
            continue
        trees = _parse_record(ws, lib, path, raw)
        origin = Origin(doc.path, doc.mark(path).line)
        raw = {**raw, "overrides": True} if replaces else raw
        common = dict(id=record_id, title=raw["title"], text=raw["text"],
                      nopeable=raw.get("nopeable", True), requires=trees.get("requires"),
                      choose=tuple((name, trees.get(("choose", name))) for name in raw.get("choose", {})),
                      origin=origin)
        if section == "cards":
            lib.cards[record_id] = (Card(tags=frozenset(raw.get("tags", ())), when=raw["when"],
                                         effect=trees.get("effect"), on_draw=trees.get("on_draw"),
                                         instead_of_draw=trees.get("instead_of_draw"),
                                         raw=_plain(raw), **_card_extras(raw), **common), path)
        else:
            lib.combos[record_id] = (Combo(size=raw["cards"], match=raw["match"], tag=raw.get("tag"),
                                           titles=frozenset(raw["titles"]) if "titles" in raw else None,
                                           slots=combo_slots(raw.get("slots")), effect=trees.get("effect"), raw=_plain(raw), **common), path)


def combo_slots(written) -> tuple | None:
    """A combo's `slots:` as the model keeps them: for each place a pair (titles or
    None, tag or None); a card id is a one-title place. None when it has none."""
    if written is None:
        return None
    return tuple((frozenset((entry,)), None) if isinstance(entry, str) else
                 (frozenset(entry["titles"]) if "titles" in entry else None, entry.get("tag"))
                 for entry in written)


def _plain(raw: dict) -> dict:
    """A card's definition as written, minus comments for people (`ruling`)."""
    return {key: value for key, value in raw.items() if key not in ("ruling", "overrides")}


def _card_extras(raw: dict) -> dict:
    """The optional card keys that are plain data (wildcards, where it goes, hooks)."""
    wild = raw.get("stands_for")
    stands_for = None if wild is None else (
        None if wild.get("any") or "cards" not in wild else frozenset(wild["cards"]),
        wild.get("tag"), frozenset(wild.get("except", ())))
    return dict(stands_for=stands_for, returns_to=raw.get("returns_to"),
                back_distinct=raw.get("back") == "distinct", in_combos=raw.get("in_combos", True),
                decoy=raw.get("decoy"), blinds=raw.get("blinds", False),
                overrides=raw.get("overrides", False), who=raw.get("who", "in"),
                answers=tuple((entry["on"], entry.get("zone"), entry.get("at", "after"))
                              for entry in raw.get("answers", ())))


def _parse_record(ws: Workspace, lib: Library, path: tuple, raw: dict) -> dict:
    trees: dict = {}  # field name, or ("choose", name) -> parsed effect (or None)
    for field_name in ("requires", "effect", "on_draw", "instead_of_draw"):
        if field_name in raw:
            tree = ws.parse(lib.doc, path + (field_name,), expression=field_name == "requires")
            trees[field_name] = lib.trees[path + (field_name,)] = tree
    for name in raw.get("choose", {}):
        tree = ws.parse(lib.doc, path + ("choose", name), expression=True)
        trees[("choose", name)] = lib.trees[path + ("choose", name)] = tree
    return trees


def check_effects(ws: Workspace, lib: Library, env: CheckEnv) -> None:
    """Type-check every effect of the library against the cards and rules of ``env``.

    Checked once per set of names: an edition and its variants mostly check a library
    against the same cards, rules and limits, and a check has no effect but its findings
    and the cards it sees named (``env.mentioned_cards``), which are kept and given again."""
    key = _env_key(env)
    if key not in lib.checked:
        outer = env.mentioned_cards
        env.mentioned_cards = set()  # the cards this library's effects name, alone
        try:
            with ws.recording() as found:
                _check_effects(ws, lib, env)
            lib.checked[key] = (tuple(found), frozenset(env.mentioned_cards))
        finally:
            env.mentioned_cards = outer
    findings, mentioned = lib.checked[key]
    for diagnostic in findings:  # (reported already, the first time: a finding is kept once)
        ws.report(diagnostic)
    env.mentioned_cards |= mentioned


def _env_key(env: CheckEnv) -> tuple:
    """What a check of effects depends on in ``env``, as a key (the limits' values too)."""
    limits = env.limits
    return (env.card_ids, env.tags, None if env.rules is None else frozenset(env.rules.items()),
            env.zones, env.player_zones, env.counters, frozenset(env.procedures.items()),
            None if limits is None else (limits.cards, limits.players, frozenset(limits.values.items())))


def _check_effects(ws: Workspace, lib: Library, env: CheckEnv) -> None:
    doc = lib.doc
    records = [(c, p, P.CARD) for c, p in lib.cards.values()] + \
              [(c, p, P.CARDS) for c, p in lib.combos.values()]
    for record, path, this_type in records:
        tag = getattr(record, "tag", None)
        if tag is not None and env.tags is not None and tag not in env.tags:
            ws.report(doc.diagnostic(path + ("tag",), "unknown-tag",
                                     f"no loaded card carries the tag '{tag}'"
                                     f"{did_you_mean(tag, env.tags)}"))
        for index, title in enumerate(sorted(getattr(record, "titles", None) or ())):
            if env.card_ids is not None and title not in env.card_ids and title not in env.elsewhere:
                where = path + ("titles", list(doc.value_at(path + ("titles",))).index(title))
                ws.report(doc.diagnostic(where, "unknown-card",
                                         f"no loaded card is called '{title}'{did_you_mean(title, env.card_ids)}"))
        if this_type is P.CARDS:
            check_slots(ws, doc, path, doc.value_at(path), env)
        names = base_names() | {zone: P.ZONE for zone in env.zones} | {"this": this_type}
        if record.requires is not None:
            ws.check(doc, path + ("requires",), record.requires, env, P.PLAY, names,
                     pure=True, expect=P.BOOL)
        for name, tree in record.choose:
            found = ws.check(doc, path + ("choose", name), tree, env, P.PLAY, names)
            report_choice_name(ws, doc, path + ("choose", name), name, names)
            names[name] = found or "?"
        context = P.REACTION if getattr(record, "when", None) == "reaction" else P.PLAY
        if getattr(record, "answers", ()):
            check_moment_answers(ws, doc, path, record, env)
            context = P.REACTION  # an answer to a moment may cancel() it
        if record.effect is not None:
            ws.check(doc, path + ("effect",), record.effect, env, context, names)
        for hook, extra in (("on_draw", {}), ("instead_of_draw", {"from_bottom": P.BOOL})):
            if getattr(record, hook, None) is not None:
                ws.check(doc, path + (hook,), getattr(record, hook), env, P.DRAWN,
                         base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARD} | extra)


def check_slots(ws: Workspace, doc, path: tuple, written: dict, env, size: int | None = None,
                match: str | None = None) -> None:
    """A combo's `slots:` (as ``written`` at ``path``): one per card, with a match that lets
    the places differ, naming cards and tags that exist. ``size`` and ``match``: the
    combo's, when a patch wrote the slots and the combo holds the rest."""
    slots = written.get("slots")
    size = written.get("cards", size)
    match = written.get("match", match)
    if slots is None:
        return
    if size is not None and len(slots) != size:
        ws.report(doc.diagnostic(path + ("slots",), "bad-value",
                                 f"`slots` lists {len(slots)} place{'s' * (len(slots) != 1)} but the combo "
                                 f"is {size} cards: give one slot per card"))
    if match == "same_title":
        ws.report(doc.diagnostic(path + ("slots",), "bad-value",
                                 "slots take cards of their own, so they cannot all share a title: write "
                                 "`match: different_titles` (no title twice) or `match: any`"))
    for index, entry in enumerate(slots):
        where = path + ("slots", index)
        named = [(where, entry)] if isinstance(entry, str) else \
            [(where + ("titles", n), title) for n, title in enumerate(entry.get("titles", ()))]
        for at, title in named:
            if env.card_ids is not None and title not in env.card_ids and title not in env.elsewhere:
                ws.report(doc.diagnostic(at, "unknown-card",
                                         f"no loaded card is called '{title}'{did_you_mean(title, env.card_ids)}"))
        tag = entry.get("tag") if isinstance(entry, dict) else None
        if tag is not None and env.tags is not None and tag not in env.tags:
            ws.report(doc.diagnostic(where + ("tag",), "unknown-tag",
                                     f"no loaded card carries the tag '{tag}'{did_you_mean(tag, env.tags)}"))


def check_moment_answers(ws: Workspace, doc, path: tuple, card, env) -> None:
    """A card's `answers:` names moments, zones and timings that exist, and the card can
    be played in answer at all (`when: reaction` or `any_time`)."""
    from .edition_rules import ANY_HAND, moment_answers  # (edition_rules loads after cards)
    known = {"draw_pile", "discard_pile", "removed", ANY_HAND, *env.zones, *env.player_zones}
    raw = doc.value_at(path)
    moment_answers(ws, doc, path, raw, known)
    if card.when not in ("reaction", "any_time"):
        ws.report(doc.diagnostic(path + ("when",) if "when" in raw else path, "bad-value",
                                 f"'{card.id}' answers moments, but `when: {card.when}` never lets it be "
                                 "played in answer: write `when: reaction`"))
