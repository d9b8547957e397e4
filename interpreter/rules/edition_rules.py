"""Loading the edition-wide rules beside its cards: phase triggers, free actions, limits
on every play and scoring (`triggers:`, `actions:`, `restrictions:` and the mapping
form of `win:`), each parsed and checked once, like the state checks.

A trigger names the moment it runs at (``on``), an optional condition (``if``) and
its effect; a card moment (``card_enters`` / ``card_leaves``) names the zone it
watches. Effects at the game's end may not ask anyone or draw on chance: the game
is over, and its result must not wait for a decision.
"""

from __future__ import annotations

from ..lang import primitives as P
from ..lang import syntax as s
from ..lang.checker import CheckEnv
from ..lang.diagnostics import ERROR, WARNING, did_you_mean
from ..lang.limits import NUMBER_LIMIT
from ..lang.procedures import MAX_EXPANDED_NODES, Procedure, callees, summary_of
from .model import BEFORE_MOMENTS, Action, Origin, Restriction, Scoring, Trigger
from .workspace import Workspace, base_names, report_choice_name

#: the moments that concern one card: `this` is the card, and they name a zone
CARD_MOMENTS = ("card_enters", "card_leaves")
#: the moments whose `this` is a card (those that name a zone, and a card drawn)
CARD_THIS = CARD_MOMENTS + ("card_drawn", "card_spent")
#: what a trigger's `zone` may name besides the edition's zones: any player's hand
ANY_HAND = "hand"


def triggers(ws: Workspace, doc, env: CheckEnv, zones: dict) -> tuple:
    """The edition's triggers, parsed and checked; a broken one is reported and left out."""
    names = base_names() | {zone: P.ZONE for zone in env.zones}
    known_zones = {"draw_pile", "discard_pile", "removed", ANY_HAND, *zones}
    found = []
    for index, raw in enumerate(doc.data.get("triggers", [])):
        path = ("triggers", index)
        on, zone, at = raw["on"], raw.get("zone"), raw.get("at", "after")
        own = dict(names, this=P.CARD) if on in CARD_THIS else names
        ok = _zone_fits(ws, doc, path, on, zone, known_zones) and _timing_fits(ws, doc, path, on, at)
        condition = ws.parse(doc, path + ("if",), expression=True) if "if" in raw else None
        ws.check(doc, path + ("if",), condition, env, P.TURN, own, pure=True, expect=P.BOOL)
        effect = ws.parse(doc, path + ("effect",))
        # before a moment, the trigger answers it as a card answers a play: cancel() stops it
        ws.check(doc, path + ("effect",), effect, env, P.REACTION if at == "before" else P.TURN, own)
        if on == "game_end" and effect is not None:
            ok = _fits_the_end(ws, doc, path + ("effect",), effect) and ok
        if effect is not None and ok and (condition is not None or "if" not in raw):
            found.append(Trigger(raw["id"], raw["text"], on, zone, condition, effect,
                                 Origin(doc.route(path)[0].path, doc.mark(path).line), at))
    return tuple(found)


def _timing_fits(ws: Workspace, doc, path: tuple, on: str, at: str) -> bool:
    """`at: before` only for the moments that can be met before they happen."""
    if at == "before" and on not in BEFORE_MOMENTS:
        ws.report(doc.diagnostic(path + ("at",), "bad-value",
                                 f"a `{on}` trigger cannot run before its moment: only "
                                 f"{' and '.join(BEFORE_MOMENTS)} can be met before they happen "
                                 "(and cancelled); remove `at: before`, or watch one of those"))
        return False
    return True


def moment_answers(ws: Workspace, doc, path: tuple, raw: dict, zones: set) -> tuple:
    """A card's `answers:` as (moment, zone or None, at) triples, each checked as a trigger's
    `on`, `zone` and `at` are; a broken entry is reported and left out."""
    found = []
    for index, entry in enumerate(raw.get("answers", ())):
        where = path + ("answers", index)
        on, zone, at = entry["on"], entry.get("zone"), entry.get("at", "after")
        if on == "play":  # a card or combo played: no zone, no timing of its own
            if zone is not None or at != "after":
                ws.report(doc.diagnostic(where, "bad-value", "`on: play` answers a card or combo played, as a "
                                         "reaction does: remove its `zone` and `at`"))
            else:
                found.append((on, None, "after"))
        elif _zone_fits(ws, doc, where, on, zone, zones) and _timing_fits(ws, doc, where, on, at):
            found.append((on, zone, at))
    return tuple(found)


def _zone_fits(ws: Workspace, doc, path: tuple, on: str, zone, known: set) -> bool:
    """A card moment names a zone the edition has; other moments name none."""
    if on in CARD_MOMENTS and zone is None:
        ws.report(doc.diagnostic(path, "missing-key",
                                 f"a `{on}` trigger watches one zone: add `zone:` (draw_pile, "
                                 f"discard_pile, removed, hand, or a zone of the edition)"))
        return False
    if on not in CARD_MOMENTS and zone is not None:
        ws.report(doc.diagnostic(path + ("zone",), "bad-value",
                                 f"only card_enters and card_leaves watch a zone; remove `zone:` "
                                 f"from this `{on}` trigger"))
        return False
    if zone is not None and zone not in known:
        ws.report(doc.diagnostic(path + ("zone",), "unknown-zone",
                                 f"no zone is called '{zone}'{did_you_mean(zone, known)}"))
        return False
    return True


def _fits_the_end(ws: Workspace, doc, path: tuple, effect) -> bool:
    """At the game's end nobody is asked, nothing is left to chance and nobody goes out:
    the game is decided, and the winners named after these triggers must be in it."""
    for node in s.walk(effect):
        prim = P.PRIMITIVES.get(node.name) if isinstance(node, s.Call) else None
        if prim is not None and node.name != P.NAMES.eliminate and (prim.waits or prim.kind in (P.CHOICE, P.CHANCE)):
            ws._report_at(doc, path, node.pos, "not-allowed-here",
                          f"{node.name}() asks a player or draws on chance, and a `game_end` "
                          "trigger runs once the game is decided: keep to counters, moves and "
                          "reveals there", ERROR)
            return False
        if prim is not None and node.name == P.NAMES.eliminate:
            ws._report_at(doc, path, node.pos, "not-allowed-here",
                          "eliminate() takes a player out, and a `game_end` trigger runs once the "
                          "game is decided, with who is in already settled: take players out "
                          "earlier (a state check, a `turn_end` trigger), or change their score "
                          "here instead", ERROR)
            return False
    return True


def counters(ws: Workspace, doc) -> dict:
    """The edition's counters; one whose `min` is above its `max`, or that starts outside
    them, is reported (a value kept within such bounds would flip from one to the other)."""
    found = dict(doc.data.get("counters", {}))
    for name, spec in found.items():
        low, high = spec.get("min", -NUMBER_LIMIT), spec.get("max", NUMBER_LIMIT)
        start = spec.get("start", 0)
        if low > high:
            where = "min" if "min" in spec else "max"
            ws.report(doc.diagnostic(("counters", name, where), "bad-value",
                                     f"counter '{name}' has min {low:,} above max {high:,}: no value fits "
                                     "between them; swap them, or lower min to at most max"))
        elif not low <= start <= high:
            ws.report(doc.diagnostic(("counters", name, "start" if "start" in spec else "min" if start < low
                                      else "max"), "bad-value",
                                     f"counter '{name}' starts at {start:,}, outside its min {low:,} and max "
                                     f"{high:,}: start it between them, or widen them"))
    return found


def scoring(ws: Workspace, doc, env: CheckEnv) -> Scoring | None:
    """The mapping form of `win:` (a game won on points), checked; None for `last_standing`."""
    win = doc.data.get("win")
    if not isinstance(win, dict):
        return None
    names, parts = base_names(), {}
    for key in ("score", "ends_when", "tie_break"):
        if key in win:
            tree = ws.parse(doc, ("win", key), expression=True)
            ws.check(doc, ("win", key), tree, env, P.TURN, names, pure=True,
                     expect=P.BOOL if key == "ends_when" else P.INT)
            parts[key] = tree
        else:
            parts[key] = None
    return Scoring(parts["score"], parts["ends_when"], parts["tie_break"],
                   Origin(doc.route(("win",))[0].path, doc.mark(("win",)).line))


def actions(ws: Workspace, doc, env: CheckEnv) -> tuple:
    """The edition's free actions, checked like a card's `requires`, `choose` and `effect`
    (``this`` is the empty list of cards they are played with)."""
    found = []
    for index, raw in enumerate(doc.data.get("actions", [])):
        path = ("actions", index)
        names = base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARDS}
        requires = ws.parse(doc, path + ("requires",), expression=True) if "requires" in raw else None
        ws.check(doc, path + ("requires",), requires, env, P.PLAY, names, pure=True, expect=P.BOOL)
        choose = []
        for name in raw.get("choose", {}):
            tree = ws.parse(doc, path + ("choose", name), expression=True)
            kind = ws.check(doc, path + ("choose", name), tree, env, P.PLAY, names)
            report_choice_name(ws, doc, path + ("choose", name), name, names)
            names[name] = kind or "?"
            choose.append((name, tree))
        effect = ws.parse(doc, path + ("effect",))
        ws.check(doc, path + ("effect",), effect, env, P.PLAY, names)
        if effect is None or any(tree is None for _name, tree in choose) or \
                ("requires" in raw and requires is None):
            continue
        found.append(Action(raw["id"], raw["title"], raw["text"], requires, tuple(choose), effect,
                            Origin(doc.route(path)[0].path, doc.mark(path).line),
                            per_turn=raw.get("per_turn", 1), per_game=raw.get("per_game"),
                            nopeable=raw.get("nopeable", False)))
    return tuple(found)


def restrictions(ws: Workspace, doc, env: CheckEnv) -> tuple:
    """The edition's limits on plays: `allows` is a condition (queries only) on the
    player (``me``) and the cards played (``this``)."""
    names = base_names() | {zone: P.ZONE for zone in env.zones} | {"this": P.CARDS}
    found = []
    for index, raw in enumerate(doc.data.get("restrictions", [])):
        path = ("restrictions", index)
        allows = None
        if "allows" in raw:
            allows = ws.parse(doc, path + ("allows",), expression=True)
            ws.check(doc, path + ("allows",), allows, env, P.PLAY, names, pure=True, expect=P.BOOL)
            if allows is None:
                continue
        rules = tuple(raw["for"]) if raw.get("for") else None
        found.append(Restriction(raw["id"], raw["text"], allows,
                                 Origin(doc.route(path)[0].path, doc.mark(path).line),
                                 tuple(raw.get("applies_to", ("plays",))), rules,
                                 raw.get("per_turn"), raw.get("per_game")))
    return tuple(found)


#: the context a procedure's body is checked in: the first of these it may be used in
_CHECKED_AS = (P.PLAY, P.TURN, P.REACTION, P.DRAWN, P.SETUP)


def procedures(ws: Workspace, doc, env: CheckEnv) -> dict:
    """The edition's procedures (`procedures:`), parsed and checked, callees before their
    callers; one that calls itself (directly or through others), or grows too large
    written out, is reported at the call and left out."""
    declared = doc.data.get("procedures", {}) or {}
    parsed = {}
    for name, raw in declared.items():
        path = ("procedures", name)
        if name in P.PRIMITIVES:
            ws.report(doc.diagnostic(path, "shadows-primitive",
                                     f"the procedure '{name}' has the name of a primitive: this edition's "
                                     f"effects call the procedure, not the primitive {name}()",
                                     key=True, severity=WARNING))
        is_value = "value" in raw
        body = ws.parse(doc, path + ("value" if is_value else "effect",), expression=is_value)
        if body is not None:
            parsed[name] = (path, raw, body, is_value)
    known: dict = {}
    for name in _in_call_order(ws, doc, parsed):
        path, raw, body, is_value = parsed[name]
        found = _procedure(ws, doc, env, known, name, path, raw, body, is_value)
        if found is not None:
            known[name] = found
    return known


def _in_call_order(ws: Workspace, doc, parsed: dict) -> list:
    """The procedures' names, each after those it calls; those on a cycle are reported."""
    order: list = []
    state: dict = {}  # 1 while its callees are being visited, 2 when done

    def visit(name: str, trail: tuple) -> bool:
        if state.get(name) == 2:
            return name in order
        if state.get(name) == 1:
            return False
        state[name] = 1
        path, _raw, body, is_value = parsed[name]
        ok = True
        for call in callees(body, parsed):
            if state.get(call.name) == 1:
                cycle = " -> ".join((*trail[trail.index(call.name):], name, call.name)) \
                    if call.name in trail else f"{name} -> {name}"
                what = "calls itself" if call.name == name else "leads back to itself"
                ws._report_at(doc, path + ("value" if is_value else "effect",), call.pos, "procedure-cycle",
                              f"'{name}' {what} ({cycle}): a procedure may not call itself, "
                              "directly or through others; write the repetition as a `for` loop", ERROR)
                ok = False
            elif not visit(call.name, (*trail, name)):
                ok = False
        state[name] = 2
        if ok:
            order.append(name)
        return ok

    for name in parsed:
        visit(name, ())
    return order


def _procedure(ws: Workspace, doc, env: CheckEnv, known: dict, name: str, path: tuple, raw: dict,
               body, is_value: bool):
    """One procedure, checked with the procedures it calls known already; None if broken."""
    params = []
    for param, type_name in (raw.get("params") or {}).items():
        if type_name not in P.TYPES:
            ws.report(doc.diagnostic(path + ("params", param), "bad-value",
                                     f"no type is called '{type_name}'"
                                     f"{did_you_mean(type_name, P.TYPES, 'the types are ' + ', '.join(P.TYPES))}"))
            return None
        params.append(P.Param(param, type_name))
    kind, contexts, size = summary_of(body, is_value, known)
    where = path + ("value" if is_value else "effect",)
    if not contexts:
        ws.report(doc.diagnostic(where, "not-allowed-here",
                                 f"'{name}' calls primitives that are never allowed in the same place "
                                 "(see each one's contexts in docs/effects.md): split it in two"))
        return None
    if size > MAX_EXPANDED_NODES:
        ws.report(doc.diagnostic(where, "procedure-too-large",
                                 f"'{name}' grows to {size:,} parts with the procedures it calls written out "
                                 f"(at most {MAX_EXPANDED_NODES:,}): call fewer procedures in it, or smaller ones"))
        return None
    context = next(c for c in _CHECKED_AS if c in contexts)
    inner = CheckEnv(env.card_ids, env.tags, env.rules, env.mentioned_cards, env.zones, env.player_zones,
                     env.limits, env.counters, procedures=dict(known))
    names = base_names() | {zone: P.ZONE for zone in env.zones} | {p.name: p.type for p in params}
    returns = ws.check(doc, where, body, inner, context, names)
    return Procedure(name, tuple(params), body, is_value, " ".join(str(raw.get("text", "")).split()),
                     returns if is_value else None, kind, contexts, size)
