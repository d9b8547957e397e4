"""The one front door to the effect grammar.

:func:`parse_program` and :func:`parse_expression` turn effect text into
:mod:`syntax` nodes, or raise :class:`EffectError` with the offset of the
offending character and a message in plain words (never a lark exception).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import syntax as s
from .limits import NUMBER_LIMIT

MAX_EFFECT_CHARS = 8000
MAX_NESTING = 24  # brackets
MAX_TREE_DEPTH = 100  # any nesting: brackets, blocks, else-if ladders, `not not ...`

_GRAMMAR = Path(__file__).with_name("effects.lark")

# How the parser's terminal names read to a person.
_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": 'a "string"', "LPAR": "'('",
    "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "COMMA": "','", "EQUAL": "'='",
    "SEMICOLON": "';'", "DOT": "'.'", "COMPARE": "a comparison", "ADDOP": "'+' or '-'",
    "LET": "'let'", "IF": "'if'", "ELSE": "'else'", "FOR": "'for'", "IN": "'in'",
    "NOT": "'not'", "AND": "'and'", "OR": "'or'", "TRUE": "'true'", "FALSE": "'false'",
    "RULES": "'rules'", "$END": "the end of the effect",
}


class EffectError(Exception):
    """A problem inside effect text, at character offset ``pos``."""

    def __init__(self, pos: int, code: str, message: str):
        super().__init__(message)
        self.pos = pos
        self.code = code
        self.message = message


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), start=["program", "expression"],
                parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse_program(text: str) -> s.Program:
    """Parse a whole effect (statements)."""
    return _parse(text, "program")


def parse_expression(text: str):
    """Parse a single expression, such as a count ``players - 1``."""
    return _parse(text, "expression")


def _parse(text: str, start: str):
    _check_size(text)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _friendly(exc, text) from None
    _check_depth(tree)  # the tree walkers after this point recurse
    return _ToSyntax().transform(tree)


def _check_size(text: str) -> None:
    if len(text) > MAX_EFFECT_CHARS:
        raise EffectError(0, "effect-too-complex",
                          f"effect is {len(text):,} characters; the limit is {MAX_EFFECT_CHARS:,}: "
                          "split it or simplify it")
    depth = 0
    for index, char in enumerate(text):
        if char in "({":
            depth += 1
            if depth > MAX_NESTING:
                raise EffectError(index, "effect-too-complex",
                                  f"brackets nest more than {MAX_NESTING} deep: use `let` "
                                  "to name intermediate values")
        elif char in ")}":
            depth -= 1


def _check_depth(tree: Tree) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise EffectError(_pos(node.meta), "effect-too-complex",
                              f"the effect nests more than {MAX_TREE_DEPTH} levels deep (blocks, "
                              "else-if chains, `not`): split it with `let`")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
            elif child.type == "INT" and _too_large(child):
                shown = child if len(child) <= 20 else f"{child[:12]}... ({len(child):,} digits)"
                raise EffectError(child.start_pos, "number-too-large",
                                  f"{shown} is larger than any number an effect may use "
                                  f"({NUMBER_LIMIT:,})")


def _too_large(digits: str) -> bool:
    """Whether a number literal is beyond the limit (its length is looked at first:
    Python refuses to convert thousands of digits)."""
    digits = digits.lstrip("0")
    return len(digits) > len(str(NUMBER_LIMIT)) or int(digits or "0") > NUMBER_LIMIT


def _friendly(exc: UnexpectedInput, text: str) -> EffectError:
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        char = text[at]
        hint = ""
        hint = {"'": ': strings use double quotes, "like this"', "&": ": write `and`",
                "|": ": write `or`", "!": ": write `not`, or `!=` to compare"}.get(char, "")
        if char.isupper():
            hint = ": names are lower_case_with_underscores"
        return EffectError(at, "effect-syntax", f"unexpected character {char!r}{hint}")
    if isinstance(exc, UnexpectedEOF):
        return EffectError(len(text.rstrip()), "effect-syntax",
                           f"the effect ends too early; expected {_expected(exc.expected)}")
    if isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        pos = token.start_pos if token.start_pos is not None else len(text.rstrip())
        if token.type == "$END":
            return EffectError(len(text.rstrip()), "effect-syntax",
                               f"the effect ends too early; expected {_expected(exc.expected)}")
        hint = " (to compare, write ==)" if token.value == "=" else ""
        return EffectError(pos, "effect-syntax",
                           f"unexpected {token.value!r}{hint}; expected {_expected(exc.expected)}")
    return EffectError(0, "effect-syntax", "the effect does not parse")  # pragma: no cover


# The terminals most likely to be what the author forgot come first.
_PREFERRED = ["RPAR", "COMMA", "RBRACE", "LBRACE", "EQUAL", "NAME", "INT", "STRING", "LPAR"]


def _expected(names) -> str:
    names = [n for n in names if not n.startswith("__")]
    names.sort(key=lambda n: (_PREFERRED.index(n) if n in _PREFERRED else len(_PREFERRED), n))
    readable = list(dict.fromkeys(_READABLE.get(n, n.lower()) for n in names))
    if len(readable) > 4:
        readable = readable[:4] + ["..."]
    return " or ".join(readable) if readable else "something else"


@v_args(meta=True)
class _ToSyntax(Transformer):
    """Lark tree -> frozen :mod:`syntax` nodes with character offsets."""

    def program(self, meta, items):
        return s.Program(_pos(meta), tuple(items))

    def expression(self, meta, items):
        return items[0]

    def let_stmt(self, meta, items):
        return s.Let(_pos(meta), str(items[0]), items[0].start_pos, items[1])

    def assign_stmt(self, meta, items):
        return s.Assign(items[0].start_pos, str(items[0]), items[1])

    def aggregate(self, meta, items):
        op, value, name, iterable = items[:4]
        condition = items[4] if len(items) > 4 else None
        return s.Aggregate(op.start_pos, str(op), str(name), name.start_pos, value, iterable, condition)

    def if_stmt(self, meta, items):
        otherwise = items[2] if len(items) > 2 else ()
        if isinstance(otherwise, s.If):
            otherwise = (otherwise,)
        return s.If(_pos(meta), items[0], items[1], otherwise)

    def for_stmt(self, meta, items):
        return s.For(_pos(meta), str(items[0]), items[0].start_pos, items[1], items[2])

    def call_stmt(self, meta, items):
        return s.CallStmt(_pos(meta), items[0])

    def block(self, meta, items):
        return tuple(items)

    def call(self, meta, items):
        name = items[0]
        args, kwargs = [], []
        for item in items[1:]:
            (kwargs if isinstance(item, s.Keyword) else args).append(item)
        return s.Call(name.start_pos, str(name), tuple(args), tuple(kwargs))

    def keyword(self, meta, items):
        return s.Keyword(items[0].start_pos, str(items[0]), items[1])

    def or_op(self, meta, items):
        return s.BoolOp(_pos(meta), "or", tuple(items))

    def and_op(self, meta, items):
        return s.BoolOp(_pos(meta), "and", tuple(items))

    def not_op(self, meta, items):
        return s.Not(_pos(meta), items[0])

    def comparison(self, meta, items):
        left, op, right = items
        return s.Compare(op.start_pos, str(op), left, right)

    def sum(self, meta, items):
        return s.Sum(_pos(meta), items[0], tuple(str(op) for op in items[1::2]), tuple(items[2::2]))

    product = sum  # `*` and `/`: one level tighter, same node

    def negate(self, meta, items):
        # `-x` is `0 - x`: one node the checker, compiler and cost model already know
        return s.Sum(_pos(meta), s.IntLit(_pos(meta), 0), ("-",), (items[0],))

    def int_lit(self, meta, items):
        return s.IntLit(items[0].start_pos, int(items[0]))

    def str_lit(self, meta, items):
        return s.StrLit(items[0].start_pos, str(items[0])[1:-1])

    def true_lit(self, meta, items):
        return s.BoolLit(_pos(meta), True)

    def false_lit(self, meta, items):
        return s.BoolLit(_pos(meta), False)

    def name(self, meta, items):
        return s.Name(items[0].start_pos, str(items[0]))

    def rule_ref(self, meta, items):
        return s.RuleRef(_pos(meta), str(items[0]), items[0].start_pos)


def _pos(meta) -> int:
    return getattr(meta, "start_pos", 0) if not getattr(meta, "empty", False) else 0
