"""The cards, combos and card parameters an edition ends up with.

Cards come from the included libraries and from the rule files themselves
(`define_cards`, `replace_cards`, `define_combos`), in the order of the layers
that brought them: the base edition first, then each expansion or house rule.
A later file may replace a card (`overrides: true` in a library, or
`replace_cards`) and patch some of its keys (`patch_cards`). Two expansions
that replace or patch one card differently conflict: an error naming both.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from ..lang import checker
from ..lang import primitives as P
from ..lang.diagnostics import ERROR, WARNING, did_you_mean
from .compose import EXPANSION, Claims, where
from .library import (Library, _card_extras, _plain, check_slots, combo_slots, inline_library, load_library,
                      resolve)
from .model import Card, Combo, Origin
from .workspace import Workspace, base_names, report_choice_name


@dataclass
class Source:
    """A library as one layer of the edition brought it."""

    library: Library
    layer: int  # 0: the base edition; then each applied file in order
    kind: str  # EXPANSION, HOUSE, or "edition" for the base


def libraries(ws: Workspace, doc) -> list[Source]:
    """The edition's libraries in layer order (each inline definition after its file's includes)."""
    layers = [(doc.base, "edition")] + list(doc.layers)
    index_of = {id(layer): number for number, (layer, _kind) in enumerate(layers)}
    found = []
    with ws.libraries.including(os.path.realpath(doc.path)):
        for index, relative in enumerate(doc.data["include"]):
            layer = doc.route(("include", index))[0]
            lib = load_library(ws, resolve(doc, relative), from_doc=doc, from_path=("include", index))
            if lib is not None:
                number = index_of.get(id(layer), 0)
                found.append(Source(lib, number, layers[number][1]))
    for number, (layer, kind) in enumerate(layers):
        if any(key in layer.data for key in ("define_cards", "replace_cards", "define_combos")):
            found.append(Source(inline_library(ws, layer), number, kind))
    return sorted(found, key=lambda source: source.layer)


def gather(ws: Workspace, sources: list[Source], settled: frozenset = frozenset()) -> tuple[dict, dict]:
    """Every card and combo, later layers replacing earlier ones where they say so.

    ``settled``: card ids a house rule replaces or patches; two expansions that
    redefine one of those differently do not conflict, the house rule decides.
    """
    cards: dict[str, Card] = {}
    combos: dict[str, Combo] = {}
    owner: dict[str, Source] = {}  # card id -> the Source of its current definition
    claims = Claims()  # cards two expansions redefine
    seen = set()  # every definition met so far, kept or replaced: a library reached again adds nothing
    for source in sources:
        lib = source.library
        for card_id, (card, card_lib, path) in lib.visible_cards().items():
            if id(card) in seen:
                continue
            seen.add(id(card))
            before = owner.get(card_id)
            if before is None:
                if card.overrides and lib.kind == "inline":
                    fix = did_you_mean(card_id, cards, "define a new card with `define_cards`")
                    ws.report(lib.doc.diagnostic(path + ("id",), "nothing-to-change",
                                                 f"no card '{card_id}' to replace{fix}"))
                    continue
                owner[card_id], cards[card_id] = source, card
                continue
            if not card.overrides:
                if cards[card_id].overrides and before.layer >= source.layer:
                    continue  # the version replaced, seen after its replacement (same file)
                hint = "use `replace_cards` to change it" if lib.kind == "inline" else \
                    "mark the new one `overrides: true`"
                ws.report(card_lib.doc.diagnostic(
                    path + ("id",), "duplicate-id",
                    f"card '{card_id}' is also defined at {cards[card_id].origin}: an id may be "
                    f"defined only once ({hint})"))
                continue
            if cards[card_id].overrides and before.kind == EXPANSION and source.kind == EXPANSION:
                if card_id not in claims:  # the expansion whose definition stands so far
                    claims.claim(card_id, before.layer, cards[card_id].raw, str(cards[card_id].origin), None)

                def report(earlier: str, card_lib=card_lib, path=path, card_id=card_id):
                    return card_lib.doc.diagnostic(
                        path + ("id",), "conflict",
                        f"card '{card_id}' is also redefined, differently, at {earlier}: two "
                        "expansions change one card; apply only one, or settle it in a house rule "
                        "(`replace_cards`)")
                claims.claim(card_id, source.layer, card.raw, str(card.origin), report)
                if card_id in claims.conflicts and card_id not in settled:
                    continue  # the first definition stands; a house rule would settle it
            owner[card_id], cards[card_id] = source, card
        for combo_id, (combo, path) in lib.combos.items():
            if combo_id in combos and combos[combo_id] is not combo:
                ws.report(lib.doc.diagnostic(path + ("id",), "duplicate-id",
                                             f"combo '{combo_id}' is also defined at "
                                             f"{combos[combo_id].origin}: an id may be defined only once"))
                continue
            combos[combo_id] = combo
    for card_id in settled:  # a house rule replaces or patches the card itself
        claims.settle(card_id)
    for diagnostic in claims.conflicts.values():
        ws.report(diagnostic)
    return cards, combos


def settled_by_house_rules(doc) -> frozenset:
    """Card ids that some house rule of the stack replaces or patches: two expansions
    that redefine one differently do not conflict (see compose.Claims), the house rule
    decides."""
    found = set()
    for layer, kind in doc.layers:
        if kind != EXPANSION:
            found.update(layer.data.get("patch_cards", {}))
            found.update(card["id"] for card in layer.data.get("replace_cards", []))
    return frozenset(found)


def replacements(sources: list[Source], cards: dict) -> dict:
    """The cards that a file other than the base replaced (`overrides: true` or
    `replace_cards`): card id -> the Source whose definition stands."""
    found = {}
    for source in sources:
        if source.layer == 0:  # the base edition's own libraries: what the others build on
            continue
        for card_id, (card, _lib, _path) in source.library.visible_cards().items():
            if card.overrides and cards.get(card_id) is card:
                found[card_id] = source
    return found


def card_params(ws: Workspace, sources: list[Source]) -> dict:
    """Parameters the card libraries declare: name -> (default, Origin); disagreements reported."""
    params: dict[str, tuple] = {}
    seen: set = set()
    for source in sources:
        stack = [source.library]
        while stack:
            lib = stack.pop()
            if lib.path in seen:
                continue
            seen.add(lib.path)
            stack.extend(lib.uses)
            for name, (value, path) in lib.params.items():
                origin = Origin(lib.doc.path, lib.doc.mark(path).line)
                if name in params and params[name][0] != value:
                    ws.report(lib.doc.diagnostic(path, "conflict",
                                                 f"the parameter '{name}' defaults to {params[name][0]} at "
                                                 f"{params[name][1]}: two libraries disagree; make the "
                                                 "defaults agree or rename one", key=True))
                    continue
                params.setdefault(name, (value, origin))
    return params


#: card keys whose text is an effect, and how each is parsed
_TREES = {"requires": True, "effect": False, "on_draw": False, "instead_of_draw": False}


def patch(ws: Workspace, doc, cards: dict, replaced: dict | None = None) -> tuple[dict, list]:
    """Cards with every layer's `patch_cards` applied; returns (cards, patches to check).

    Each patch to check is (layer document, card id) of a patched card whose new
    effects must still be type-checked against the finished edition. ``replaced``
    (see :func:`replacements`): a patch that changes what another file's replacement
    of the card says is reported (patches apply after every replacement, whatever the
    order of the files, so the patch would silently undo part of it).
    """
    if replaced:
        _patches_over_replacements(ws, doc, cards, replaced)
    return _patch_records(ws, doc, cards, "patch_cards", _patched)


def _patches_over_replacements(ws: Workspace, doc, cards: dict, replaced: dict) -> None:
    """Report each patched field that another file's replacement of the card sets to
    something else: between two expansions a conflict (unless a house rule settles the
    card); a house rule's patch of a card replaced by a file layered after it (`--with`)
    a warning (`patches-replaced-card`) naming both places. A house rule patching what
    the files it builds on replaced decides, as it does for every conflict."""
    settled = settled_by_house_rules(doc)
    for number, (layer, kind) in enumerate(doc.layers, start=1):
        for card_id, changes in layer.data.get("patch_cards", {}).items():
            source = replaced.get(card_id)
            if source is None or source.layer == number or not isinstance(changes, dict) or \
                    (kind == EXPANSION and card_id in settled) or \
                    (kind != EXPANSION and source.layer < number):  # a house rule decides
                continue
            card = cards[card_id]
            for field_name, value in changes.items():
                if field_name not in card.raw or card.raw[field_name] == value:
                    continue
                conflict = kind == EXPANSION and source.kind == EXPANSION
                shown = f"`{card_id}.{field_name}`"
                advice = ("two expansions disagree; apply only one, or settle it in a house rule" if conflict
                          else "check that the patch was written for that version of the card")
                message = (f"{shown} is patched here, but {card.origin} replaced the card, and this "
                           f"patch changes what that version says: {advice}")
                ws.report(layer.diagnostic(("patch_cards", card_id, field_name),
                                           "conflict" if conflict else "patches-replaced-card",
                                           message, severity=ERROR if conflict else WARNING))


def patch_combos(ws: Workspace, doc, combos: dict) -> tuple[dict, list]:
    """Combos with every layer's `patch_combos` applied, as :func:`patch` does for cards."""
    return _patch_records(ws, doc, combos, "patch_combos", _patched_combo)


def _patch_records(ws: Workspace, doc, records: dict, key: str, patched) -> tuple[dict, list]:
    """Records (cards or combos) with each layer's patches under ``key`` applied by
    ``patched``; two expansions patching one field differently conflict."""
    cards, done, claims = dict(records), [], Claims()
    what, define = ("card", "define_cards") if key == "patch_cards" else ("combo", "define_combos")
    for layer, kind in doc.layers:
        for card_id, changes in layer.data.get(key, {}).items():
            path = (key, card_id)
            if card_id not in cards:
                fix = did_you_mean(card_id, cards, f"define a new {what} with `{define}`")
                ws.report(layer.diagnostic(path, "nothing-to-change", f"no {what} '{card_id}' to patch{fix}",
                                           key=True))
                continue
            for field_name, value in changes.items():
                claimed, field_path = (card_id, field_name), path + (field_name,)
                if kind != EXPANSION:  # a house rule's patch settles the field
                    claims.settle(claimed)
                    continue

                def report(earlier: str, layer=layer, field_path=field_path, claimed=claimed):
                    return layer.diagnostic(field_path, "conflict",
                                            f"`{claimed[0]}.{claimed[1]}` is also patched, differently, by "
                                            f"{earlier}: two expansions disagree; apply only one, or "
                                            "settle it in a house rule")
                claims.claim(claimed, layer, value, where(layer, field_path), report)
            cards[card_id] = patched(ws, layer, path, cards[card_id], changes)
            done.append((layer, card_id))
        if kind != EXPANSION:
            claims.house_rule()
    for diagnostic in claims.conflicts.values():
        ws.report(diagnostic)
    return cards, done


def _patched(ws: Workspace, layer, path: tuple, card, changes: dict):
    """One card with some keys replaced; effect text is parsed here and checked later."""
    new = {}
    for name, expression in _TREES.items():
        if name in changes:
            new[name] = ws.parse(layer, path + (name,), expression=expression)
    if "choose" in changes:
        new["choose"] = tuple((name, ws.parse(layer, path + ("choose", name), expression=True))
                              for name in changes["choose"])
    for name in ("title", "text", "when", "nopeable"):
        if name in changes:
            new[name] = changes[name]
    if "tags" in changes:
        new["tags"] = frozenset(changes["tags"])
    extras = _card_extras({**card.raw, **changes})
    new.update({key: value for key, value in extras.items() if key != "overrides"})
    raw = {**card.raw, **_plain(changes)}
    origin = Origin(layer.path, layer.mark(path).line)
    return replace(card, raw=raw, changed_at=card.changed_at + (origin,),
                   written_at=_written_at(layer, path, card, changes), **new)


def _patched_combo(ws: Workspace, layer, path: tuple, combo, changes: dict):
    """One combo with some keys replaced; effects are parsed here and checked later."""
    new = {name: ws.parse(layer, path + (name,), expression=name == "requires")
           for name in ("requires", "effect") if name in changes}
    if "choose" in changes:
        new["choose"] = tuple((name, ws.parse(layer, path + ("choose", name), expression=True))
                              for name in changes["choose"])
    new.update({name: changes[name] for name in ("title", "text", "nopeable", "tag") if name in changes})
    if "cards" in changes:
        new["size"] = changes["cards"]
    if "match" in changes:
        new["match"] = changes["match"]
    if "slots" in changes:
        new["slots"] = combo_slots(changes["slots"])
    origin = Origin(layer.path, layer.mark(path).line)
    return replace(combo, raw={**(combo.raw or {}), **_plain(changes)}, changed_at=combo.changed_at + (origin,),
                   written_at=_written_at(layer, path, combo, changes), **new)


#: the parts of a card or combo that run in play, each named in errors by the file that wrote it
_RUN_PARTS = ("effect", "requires", "choose", "on_draw", "instead_of_draw")


def _written_at(layer, path: tuple, record, changes: dict) -> dict:
    """The record's ``written_at`` with the parts ``changes`` rewrites placed in ``layer``."""
    return {**record.written_at, **{part: Origin(layer.path, layer.mark(path + (part,)).line)
                                    for part in _RUN_PARTS if part in changes}}


def check_combo_patches(ws: Workspace, done: list, combos: dict, env) -> None:
    """Type-check what `patch_combos` brought, at its place in the patching file."""
    for layer, combo_id in done:
        path, changes, combo = ("patch_combos", combo_id), layer.data["patch_combos"][combo_id], combos[combo_id]
        names = base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARDS}
        _check_patched_slots(ws, layer, path, changes, combo, env)
        if "requires" in changes:
            ws.check(layer, path + ("requires",), combo.requires, env, P.PLAY, names, pure=True, expect=P.BOOL)
        for name, tree in combo.choose:
            if "choose" in changes:
                found = ws.check(layer, path + ("choose", name), tree, env, P.PLAY, names)
                report_choice_name(ws, layer, path + ("choose", name), name, names)
            else:
                found = checker.Checker(env, P.PLAY, names).expression(tree) if tree else None
            names[name] = found or "?"
        if "effect" in changes:
            ws.check(layer, path + ("effect",), combo.effect, env, P.PLAY, names)


def _check_patched_slots(ws: Workspace, layer, path: tuple, changes: dict, combo, env) -> None:
    """Slots a patch wrote are checked as a definition's are; a patch of `cards` or
    `match` alone must still suit the slots the combo keeps."""
    if "slots" in changes:
        check_slots(ws, layer, path, changes, env, combo.size, combo.match)
    elif combo.slots is not None:
        if "cards" in changes and changes["cards"] != len(combo.slots):
            ws.report(layer.diagnostic(path + ("cards",), "bad-value",
                                       f"the combo has {len(combo.slots)} slots, one per card: patch "
                                       "`slots` too when you change `cards`"))
        if changes.get("match") == "same_title":
            ws.report(layer.diagnostic(path + ("match",), "bad-value",
                                       "the combo has slots, which cannot all share a title: write "
                                       "`match: different_titles` or `match: any`"))


def check_patches(ws: Workspace, done: list, cards: dict, env) -> None:
    """Type-check the effects patches brought, at their positions in the patching file."""
    for layer, card_id in done:
        path, changes, card = ("patch_cards", card_id), layer.data["patch_cards"][card_id], cards[card_id]
        names = base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARD}
        if "requires" in changes:
            ws.check(layer, path + ("requires",), card.requires, env, P.PLAY, names, pure=True,
                     expect=P.BOOL)
        for name, tree in card.choose:
            if "choose" in changes:
                found = ws.check(layer, path + ("choose", name), tree, env, P.PLAY, names)
                report_choice_name(ws, layer, path + ("choose", name), name, names)
            else:  # the original's choices: their types, without reporting again
                found = checker.Checker(env, P.PLAY, names).expression(tree) if tree else None
            names[name] = found or "?"
        context = P.REACTION if card.when == "reaction" else P.PLAY
        if "effect" in changes:
            ws.check(layer, path + ("effect",), card.effect, env, context, names)
        for hook, extra in (("on_draw", {}), ("instead_of_draw", {"from_bottom": P.BOOL})):
            if hook in changes:
                ws.check(layer, path + (hook,), getattr(card, hook), env, P.DRAWN,
                         base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARD} | extra)


def unknown_params(ws: Workspace, doc, params: dict) -> None:
    """`set_params` names no file below declared and no card library declares either
    (``params``: the card libraries' parameters)."""
    pending = getattr(doc, "params_to_find", [])
    unset = {path[-1] for _layer, path in pending}
    known = set(params) | {name for name in doc.data.get("params", {}) if name not in unset}
    for layer, path in pending:
        name = path[-1]
        if name not in params:
            ws.report(layer.diagnostic(path, "nothing-to-change",
                                       f"no parameter '{name}' to set"
                                       f"{did_you_mean(name, known, 'add a new one with `add_params`')}", key=True))
