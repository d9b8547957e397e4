"""Procedures: named pieces of effect, with parameters, that any effect of an edition calls.

A rule file declares them under ``procedures:`` (rules/edition_rules.py reads and
checks them). There are two kinds:

* an **effect procedure** (``effect:``) is called as a statement, ``steal(p, 2)``;
* a **value procedure** (``value:``) is an expression, ``cats_of(p) > 2``.

To the checker a procedure is one more primitive (:func:`as_primitive`): its
parameters are typed, what it gives is the type of its value, and it may be
used wherever every primitive it calls may be. To everything after the checker
(the compiler, the cost estimate, the rulesheet) a procedure does not exist:
:func:`expand` writes each call out in place, once, when the edition compiles,
so a game never looks a procedure up and the words read as the effect itself.

Written out, an effect procedure's arguments become `let`s, worked out once, in the
order of its parameters, before its body runs; a value procedure's arguments (queries
only) stand in for its parameters. The names a body binds are renamed where the caller
uses them already, so a procedure never sees or changes its caller's names. Every
node written out is placed at the call, so that what an estimate or the game reports
about it points at the call that brought it in.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from . import primitives as P
from . import syntax as s

#: parts (syntax nodes) one procedure may grow to with the procedures it calls written out
MAX_EXPANDED_NODES = 2000
#: kinds of step, weakest first: a procedure is of the strongest kind it holds
_STRENGTH = {P.QUERY: 0, P.CHANCE: 1, P.CHOICE: 2, P.ACTION: 3}


@dataclass(frozen=True)
class Procedure:
    """One declared procedure: ``body`` is a program (an effect procedure) or an
    expression (a value procedure, ``is_value``)."""

    name: str
    params: tuple  # of primitives.Param (all required)
    body: object
    is_value: bool
    text: str = ""
    returns: str | None = None  # a value procedure's type (None: an effect procedure)
    kind: str = P.ACTION
    contexts: frozenset = P.EFFECT_CONTEXTS
    size: int = 0  # its nodes, with the procedures it calls written out

    def as_primitive(self) -> P.Primitive:
        """How the checker sees a call of it."""
        return P.Primitive(self.name, self.params, self.returns, self.kind,
                           self.text or f"The procedure {self.name}.", "Procedures", self.contexts)


def callees(tree, names) -> list:
    """The calls in ``tree`` of the procedures named in ``names``, in the order written."""
    return [node for node in s.walk(tree) if isinstance(node, s.Call) and node.name in names]


def summary_of(body, is_value: bool, known: dict) -> tuple[str, frozenset, int]:
    """A body's kind of step, the contexts it may be used in, and its size written out,
    from the primitives and the (already summed up) procedures ``known`` it calls."""
    strength, contexts, size = 0, P.EFFECT_CONTEXTS | {P.SETUP}, 0
    for node in s.walk(body):
        size += 1
        if not isinstance(node, s.Call):
            continue
        callee = known.get(node.name)
        found = callee.as_primitive() if callee is not None else P.PRIMITIVES.get(node.name)
        if found is None:
            continue
        strength = max(strength, _STRENGTH.get(found.kind, 3))
        contexts &= found.contexts
        if callee is not None:
            size += callee.size
    kind = next(k for k, v in _STRENGTH.items() if v == strength)
    if not is_value:
        kind = P.ACTION
        contexts &= P.EFFECT_CONTEXTS
    return kind, frozenset(contexts), size


def names_in(tree) -> set:
    """Every name a tree reads or binds."""
    found = set()
    for node in s.walk(tree):
        if isinstance(node, s.Name):
            found.add(node.id)
        elif isinstance(node, (s.Let, s.Assign, s.For, s.Aggregate)):
            found.add(node.name)
    return found


def expand(tree, procedures: dict, taken=frozenset()):
    """``tree`` with every call of a procedure written out (the same tree when it calls
    none). ``taken``: names the caller's context holds beyond those in the tree (a
    card's `choose` names)."""
    if tree is None or not procedures or not callees(tree, procedures):
        return tree
    return _Expander(procedures, set(taken) | names_in(tree) | set(P.BUILTIN_NAMES) | {"this"}).tree(tree)


def expand_record(record, procedures: dict):
    """A rule record (card, combo, trigger, check, action, ...) with its effects written
    out; the record itself when it calls no procedure."""
    if not procedures:
        return record
    choose = getattr(record, "choose", ())
    taken = {name for name, _tree in choose} if isinstance(choose, tuple) else set()
    changes = {}
    for spec in fields(record):
        value = getattr(record, spec.name)
        if isinstance(value, s.Node):
            new = expand(value, procedures, taken)
        elif spec.name == "choose" and isinstance(value, tuple):
            new = tuple((name, expand(tree, procedures, taken)) for name, tree in value)
        else:
            continue
        if new != value:
            changes[spec.name] = new
    return replace(record, **changes) if changes else record


class _Expander:
    """Writes out the procedure calls of one tree, drawing fresh names from ``taken``."""

    def __init__(self, procedures: dict, taken: set) -> None:
        self.procedures = procedures
        self.taken = taken

    def fresh(self, name: str) -> str:
        candidate, number = name, 2
        while candidate in self.taken:
            candidate, number = f"{name}_{number}", number + 1
        self.taken.add(candidate)
        return candidate

    def tree(self, tree):
        if isinstance(tree, s.Program):
            return replace(tree, body=self.statements(tree.body))
        return self.expr(tree)

    def statements(self, body: tuple) -> tuple:
        out: list = []
        for stmt in body:
            proc = self.procedures.get(stmt.call.name) if isinstance(stmt, s.CallStmt) else None
            if proc is not None and not proc.is_value:
                out.extend(self.effect_call(stmt.call, proc))
            elif proc is not None:  # a value (a choice, say) called for its own sake
                out.append(s.Let(stmt.pos, self.fresh("unused"), stmt.pos, self.expr(stmt.call)))
            else:
                out.append(self.statement(stmt))
        return tuple(out)

    def statement(self, stmt):
        if isinstance(stmt, (s.Let, s.Assign)):
            return replace(stmt, value=self.expr(stmt.value))
        if isinstance(stmt, s.If):
            return replace(stmt, condition=self.expr(stmt.condition), then=self.statements(stmt.then),
                           otherwise=self.statements(stmt.otherwise))
        if isinstance(stmt, s.For):
            return replace(stmt, iterable=self.expr(stmt.iterable), body=self.statements(stmt.body))
        if isinstance(stmt, s.CallStmt):
            return replace(stmt, call=self.expr(stmt.call))
        return stmt

    def expr(self, node):
        if isinstance(node, tuple):
            return tuple(self.expr(item) for item in node)
        if not isinstance(node, s.Node):
            return node
        if isinstance(node, s.Call):
            proc = self.procedures.get(node.name)
            if proc is not None and proc.is_value:
                return self.value_call(node, proc)
        changes = {f.name: self.expr(getattr(node, f.name)) for f in fields(node) if f.name != "pos"}
        return replace(node, **changes)

    def arguments(self, call: s.Call, proc: Procedure) -> list:
        """(parameter name, argument written out) in the order of the parameters."""
        given = dict(zip((p.name for p in proc.params), call.args))
        given.update((kw.name, kw.value) for kw in call.kwargs)
        return [(p.name, self.expr(given[p.name])) for p in proc.params]

    def effect_call(self, call: s.Call, proc: Procedure) -> tuple:
        lets, names = [], {}
        for param, value in self.arguments(call, proc):
            names[param] = self.fresh(param)
            lets.append(s.Let(call.pos, names[param], call.pos, value))
        for name in names_in(proc.body) - set(names):
            if _bound_in(proc.body, name):
                names[name] = self.fresh(name)
        body = _placed(proc.body, call.pos, names, {})
        return tuple(lets) + self.statements(body.body)

    def value_call(self, call: s.Call, proc: Procedure):
        values = dict(self.arguments(call, proc))
        names = {name: self.fresh(name) for name in names_in(proc.body)
                 if name not in values and _bound_in(proc.body, name)}
        return self.expr(_placed(proc.body, call.pos, names, values))


def _bound_in(tree, name: str) -> bool:
    return any(isinstance(node, (s.Let, s.For, s.Aggregate)) and node.name == name for node in s.walk(tree))


def _placed(node, pos: int, names: dict, values: dict):
    """A procedure's body placed at a call: every node at ``pos``, bound names renamed
    (``names``), parameters replaced by their arguments (``values``, kept where written)."""
    if isinstance(node, tuple):
        return tuple(_placed(item, pos, names, values) for item in node)
    if not isinstance(node, s.Node):
        return node
    if isinstance(node, s.Name):
        if node.id in values:
            return values[node.id]
        return s.Name(pos, names.get(node.id, node.id))
    changes = {}
    for spec in fields(node):
        value = getattr(node, spec.name)
        if spec.name in ("pos", "name_pos"):
            changes[spec.name] = pos
        elif spec.name == "name" and isinstance(node, (s.Let, s.Assign, s.For, s.Aggregate)):
            changes[spec.name] = names.get(value, value)
        else:
            changes[spec.name] = _placed(value, pos, names, values)
    return replace(node, **changes)
