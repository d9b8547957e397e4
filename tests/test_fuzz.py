"""Property tests: no input, however broken, makes validation raise.

Three generators feed the validator:

(a) arbitrary text (and bytes) written as a ``.yaml`` file;
(b) random mutations of the shipped rule files, validated as an edition whose
    includes still resolve;
(c) random effect programs built from the grammar's own tokens, fed to the
    parser and the checker directly.

The only acceptable outcome is a list of diagnostics whose codes are
registered in :data:`CODES` and whose positions lie inside the file. The
number of examples scales with the ``KITTENS_FUZZ_SCALE`` environment variable
(default 1, about 20 seconds for the whole file); raise it to explore longer,
e.g. ``KITTENS_FUZZ_SCALE=5 pytest tests/test_fuzz.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang.checker import CheckEnv, Checker
from kittens.interpreter.lang.diagnostics import CODES
from kittens.interpreter.lang.parser import EffectError, parse_expression, parse_program
from kittens.interpreter.rules.check import validate_paths

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("rulebook/original.yaml", "rulebook/combos.yaml", "editions/original.yaml")
SOURCES = {name: (ROOT / name).read_text(encoding="utf-8") for name in SHIPPED}

# the line breaks of YAML 1.1, which is how libyaml numbers lines
YAML_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))


def examples(count: int) -> int:
    return max(1, int(count * SCALE))


def fuzz_settings(count: int):
    return settings(max_examples=examples(count), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- the invariant -------------------------------------------------------------
def check_report(paths: list[str]) -> list:
    """Validate ``paths``; assert it does not raise and every finding is well-formed."""
    report = validate_paths(paths)  # must not raise, whatever the files hold
    for d in report.diagnostics:
        assert d.code in CODES, d
        assert d.severity in ("error", "warning"), d
        assert isinstance(d.line, int) and d.line >= 0, d
        assert isinstance(d.column, int) and d.column >= 0, d
        if d.line == 0:
            assert d.column == 0, d
        assert d.message, d
        if d.line > 0 and os.path.isfile(d.path):
            # a position must lie inside the file it names; libyaml puts the end of a
            # file without a final newline at column 1 of the line after it, which is
            # tolerated (the caret then sits just past the last character)
            raw = Path(d.path).read_bytes()
            text = raw.decode("utf-8-sig", errors="replace")
            lines = YAML_LINE_BREAK.split(text)
            assert d.line <= len(lines) or (d.line == len(lines) + 1 and d.column == 1), \
                f"{d} points past the end of a {len(lines)}-line file"
            if d.line <= len(lines):  # and inside its line, or just past its end
                width = len(lines[d.line - 1])
                assert d.column <= width + 1, f"{d} points past the end of a {width}-character line"
        d.render()  # rendering must not fail either
    return report.diagnostics


def write_and_check(tmp: str, name: str, content) -> list:
    path = os.path.join(tmp, name)
    mode = "wb" if isinstance(content, bytes) else "w"
    kwargs = {} if isinstance(content, bytes) else {"encoding": "utf-8", "newline": ""}
    with open(path, mode, **kwargs) as handle:
        handle.write(content)
    return check_report([path])


# -- (a) arbitrary text --------------------------------------------------------
@fuzz_settings(150)
@given(text=st.text())
def test_arbitrary_text_never_raises(text):
    with tempfile.TemporaryDirectory() as tmp:
        write_and_check(tmp, "any.yaml", text)


@fuzz_settings(100)
@given(raw=st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(raw):
    with tempfile.TemporaryDirectory() as tmp:
        write_and_check(tmp, "any.yaml", raw)


# Text drawn mostly from YAML's own punctuation reaches far deeper into the
# loader than uniform unicode does.
YAML_PIECES = ["\n", " ", "  ", "- ", ": ", "? ", ",", "[", "]", "{", "}", "&a ", "*a", "!!str ",
               "!!int ", "!!bool ", "!!float ", "!!null ", "!!map ", "!!seq ", "!!binary ", "! ",
               "!x ", "|", ">", "|-", ">+", "'", '"', "#", "---", "...", "%YAML 1.1", "%TAG ! !x",
               "format", "kind", "cards", "combos", "edition", "1", "0", "-1", "~", "null", "true",
               "yes", "", "1e3", ".inf", "0x1", "\t", "\\", "\\x07", "\x07", "\x00", "\ufeff",
               "é", "😀", "\r", "\r\n", "\x85", "\u2028", "<<", "=", "@", "`"]


@fuzz_settings(200)
@given(pieces=st.lists(st.sampled_from(YAML_PIECES) | st.text(max_size=3), max_size=60))
def test_yaml_shaped_text_never_raises(pieces):
    with tempfile.TemporaryDirectory() as tmp:
        write_and_check(tmp, "shaped.yaml", "".join(pieces))


@fuzz_settings(150)
@given(pieces=st.lists(st.sampled_from(YAML_PIECES) | st.text(max_size=3), max_size=40))
def test_yaml_shaped_text_after_a_valid_envelope_never_raises(pieces):
    # a valid `format`/`kind` header gets the text past the envelope to the schema
    kind = ["cards", "combos", "edition"][len(pieces) % 3]
    with tempfile.TemporaryDirectory() as tmp:
        write_and_check(tmp, "shaped.yaml", f"format: 1\nkind: {kind}\n" + "".join(pieces))


# -- (b) mutations of the shipped files ----------------------------------------
EFFECT_LINE = re.compile(r"\w\(|\b(effect|on_draw|requires|draw|count)\s*:|[{}]|\b(let|if|for)\b")
WORDS = sorted({w for text in SOURCES.values() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+", text)})
ODD_VALUES = ["0", "-1", "1", "20", "21", "1000", "1001", "99999999999999999999", "true", "null",
              "~", "''", '""', "[]", "{}", "[a]", "{a: 1}", "x", "2-3", "{'2-3': 1}", "{'3-2': 1}",
              "{'0-99': 1}", "players - 99", "rules.nope", "rules.hand_size", "players", "min(players)",
              "max(players, 30) - 1", "count(draw_pile)", "draw(me)", "cancel()", "!!binary aGk=",
              "*nowhere", "&a x", "|", ">-", "..", "../rulebook", "original.yaml", "/dev/null",
              "exploding_kitten", "defuse", "nope", "cat", "kitten", "never", "reaction", "own_turn",
              "same_title", "different_titles", "last_standing", "draw_pile", "set_aside"]
PUNCTUATION = list("()[]{},.:;=+-<>!&*|#'\"%@`?\\") + ["==", "!=", "<=", ">=", ": ", "- ", "\t"]


@st.composite
def mutation(draw, lines: list[str]):
    """One random edit of a file's lines; returns the new list of lines."""
    lines = list(lines)
    if not lines:
        return [draw(st.text(max_size=20))]
    index = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "span", "indent", "word", "word",
                                 "value", "value", "punctuation", "punctuation"]))
    if kind == "delete":
        del lines[index]
    elif kind == "duplicate":
        lines.insert(index, lines[index])
    elif kind == "swap":
        other = draw(st.integers(0, len(lines) - 1))
        lines[index], lines[other] = lines[other], lines[index]
    elif kind == "span":
        line = lines[index]
        start = draw(st.integers(0, len(line)))
        end = draw(st.integers(start, min(len(line), start + 12)))
        lines[index] = line[:start] + draw(st.text(max_size=8)) + line[end:]
    elif kind == "indent":
        line = lines[index]
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        lines[index] = " " * max(0, indent + draw(st.integers(-4, 4))) + stripped
    elif kind == "word":
        line = lines[index]
        found = list(re.finditer(r"[A-Za-z_][A-Za-z0-9_]*|\d+", line))
        if found:
            match = draw(st.sampled_from(found))
            lines[index] = line[:match.start()] + draw(st.sampled_from(WORDS)) + line[match.end():]
    elif kind == "value":  # the value after a `key:` or `- ` becomes an odd one
        line = lines[index]
        match = re.search(r"(:\s|-\s)(.*)$", line)
        if match:
            lines[index] = line[:match.start(2)] + draw(st.sampled_from(ODD_VALUES))
    else:  # punctuation inside an effect line (any line if the file has none)
        candidates = [i for i, line in enumerate(lines) if EFFECT_LINE.search(line)] or [index]
        index = draw(st.sampled_from(candidates))
        line = lines[index]
        at = draw(st.integers(0, len(line)))
        lines[index] = line[:at] + draw(st.sampled_from(PUNCTUATION)) + line[at:]
    return lines


@st.composite
def mutated_sources(draw):
    """The three shipped files, one to three of them mutated a few times."""
    texts = dict(SOURCES)
    for name in draw(st.lists(st.sampled_from(SHIPPED), min_size=1, max_size=3)):
        lines = texts[name].splitlines()
        for _ in range(draw(st.integers(1, 4))):
            lines = draw(mutation(lines))
        texts[name] = "\n".join(lines) + "\n"
    return texts


def write_tree(tmp: str, texts: dict) -> None:
    for name, text in texts.items():
        target = Path(tmp, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    # the modelines point at ../schema/*.json; keep them resolvable
    shutil.copytree(ROOT / "schema", Path(tmp, "schema"), dirs_exist_ok=True)


def test_unmutated_copy_is_clean(tmp_path):
    """The harness itself: the copied, unmutated files validate without findings."""
    write_tree(str(tmp_path), SOURCES)
    assert check_report([str(tmp_path / "editions" / "original.yaml")]) == []


@fuzz_settings(300)
@given(texts=mutated_sources())
def test_mutated_shipped_files_never_raise(texts):
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, texts)
        check_report([os.path.join(tmp, "editions", "original.yaml")])


@fuzz_settings(60)
@given(texts=mutated_sources())
def test_mutated_shipped_folder_never_raises(texts):
    # every file on its own and through the edition, as `kittens validate DIR` does
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, texts)
        check_report([tmp])


# -- (c) effect programs from grammar tokens -----------------------------------
NAMES = sorted(P.PRIMITIVES) + sorted(P.BUILTIN_NAMES) + ["x", "y", "this", "victim", "players"]
KEYWORDS = ["let", "if", "else", "for", "in", "and", "or", "not", "rules", "true", "false"]
SYMBOLS = ["(", ")", ",", "=", "{", "}", ".", ";", "+", "-", "==", "!=", "<", ">", "<=", ">="]
LITERALS = ["0", "1", "2", "99999999999999999999", '"defuse"', '"cat"', '"nope"', '""', '"x y"',
            "# a comment\n"]
ODD = ["'", "A", "é", "\\", "@", "\t", "\n", "$", "[", "]", '"', "1x", "__"]
TOKEN = st.sampled_from(NAMES + KEYWORDS + SYMBOLS + LITERALS) | st.sampled_from(ODD)
SEPARATOR = st.sampled_from([" ", "", "\n", "  "])

CARD_IDS = frozenset({"exploding_kitten", "defuse", "nope", "attack", "tacocat"})
TAGS = frozenset({"kitten", "cat", "defuse", "action"})
CONTEXTS = sorted(P.EFFECT_CONTEXTS | {P.SETUP})


@st.composite
def effect_text(draw):
    tokens = draw(st.lists(TOKEN, max_size=40))
    if draw(st.integers(0, 3)) == 0:  # a repeated group, to reach long chains and deep nesting
        group = draw(st.lists(TOKEN, min_size=1, max_size=5))
        tokens = tokens + group * draw(st.integers(1, 1200)) + draw(st.lists(TOKEN, max_size=10))
    out = []
    for token in tokens:
        out.append(token)
        out.append(draw(SEPARATOR))
    return "".join(out)


@st.composite
def well_formed_effect(draw, depth: int = 0):
    """Programs that mostly parse, so the checker sees varied trees."""
    def expr(level):
        choices = ["int", "str", "name", "rule", "bool"]
        if level < 6:
            choices += ["call", "call", "binop", "compare", "not", "and", "paren"]
        if level == 0:
            choices += ["chain"]
        pick = draw(st.sampled_from(choices))
        if pick == "int":
            return str(draw(st.integers(0, 10**6)))
        if pick == "str":
            return '"' + draw(st.sampled_from(sorted(CARD_IDS | TAGS) + ["zzz", ""])) + '"'
        if pick == "name":
            return draw(st.sampled_from(NAMES))
        if pick == "rule":
            return "rules." + draw(st.sampled_from(["attacks_stack", "hand_size", "nope", "x"]))
        if pick == "bool":
            return draw(st.sampled_from(["true", "false"]))
        if pick == "call":
            args = [expr(level + 1) for _ in range(draw(st.integers(0, 3)))]
            if draw(st.booleans()):
                args.append(draw(st.sampled_from(["at", "by", "n", "from_bottom", "zz"])) + "="
                            + expr(level + 1))
            return draw(st.sampled_from(sorted(P.PRIMITIVES) + ["nosuch"])) + "(" + ", ".join(args) + ")"
        if pick == "chain":  # a long flat chain: sums, `and`, `not`
            op = draw(st.sampled_from([" + ", " - ", " and ", " or "]))
            count = draw(st.integers(1, 800))
            return op.join([expr(6)] * count) if op.strip() in "+-" else \
                draw(st.sampled_from(["not " * count + "true", op.join(["true"] * count)]))
        if pick == "binop":
            return expr(level + 1) + draw(st.sampled_from([" + ", " - "])) + expr(level + 1)
        if pick == "compare":
            return expr(level + 1) + draw(st.sampled_from([" == ", " != ", " < ", " >= "])) + expr(level + 1)
        if pick == "not":
            return "not " + expr(level + 1)
        if pick == "and":
            return expr(level + 1) + draw(st.sampled_from([" and ", " or "])) + expr(level + 1)
        return "(" + expr(level + 1) + ")"

    def stmts(level):
        out = []
        for _ in range(draw(st.integers(0, 4))):
            pick = draw(st.sampled_from(["call", "call", "let", "if", "for", "ladder"] if level < 3
                                        else ["call", "let"]))
            if pick == "call":
                out.append(expr(5) if draw(st.booleans()) else expr(0))
            elif pick == "let":
                out.append(f"let {draw(st.sampled_from(NAMES))} = {expr(0)}")
            elif pick == "if":
                tail = f" else {{ {stmts(level + 1)} }}" if draw(st.booleans()) else ""
                out.append(f"if {expr(0)} {{ {stmts(level + 1)} }}{tail}")
            elif pick == "ladder":  # a long else-if ladder
                out.append("if true {}" + " else if true {}" * draw(st.integers(1, 500)))
            else:
                out.append(f"for {draw(st.sampled_from(NAMES))} in {expr(0)} {{ {stmts(level + 1)} }}")
        return "\n".join(out)

    return stmts(depth)


def check_effect(text: str, context: str, pure: bool, rules) -> None:
    env = CheckEnv(card_ids=CARD_IDS, tags=TAGS, rules=rules)
    names = dict(P.BUILTIN_NAMES) | {"this": P.CARD}
    try:
        tree = parse_program(text)
    except EffectError as exc:
        assert exc.code in CODES and 0 <= exc.pos <= max(len(text), 0), (exc.code, exc.pos)
    else:
        findings = Checker(env, context, names, pure=pure).program(tree)
        for finding in findings:
            assert finding.code in CODES
            assert 0 <= finding.pos <= len(text)
    try:
        expr = parse_expression(text)
    except EffectError as exc:
        assert exc.code in CODES and 0 <= exc.pos <= len(text)
    else:
        checker = Checker(env, context, names, pure=pure)
        checker.expression(expr, P.INT)
        for finding in checker.findings:
            assert finding.code in CODES
            assert 0 <= finding.pos <= len(text)


RULES = st.sampled_from([{}, None, {"attacks_stack": P.BOOL, "hand_size": P.INT}])


@fuzz_settings(500)
@given(text=effect_text(), context=st.sampled_from(CONTEXTS), pure=st.booleans(), rules=RULES)
def test_token_soup_effects_only_raise_effect_error(text, context, pure, rules):
    check_effect(text, context, pure, rules)


@fuzz_settings(300)
@given(text=well_formed_effect(), context=st.sampled_from(CONTEXTS), pure=st.booleans(), rules=RULES)
def test_well_formed_effects_only_raise_effect_error(text, context, pure, rules):
    check_effect(text, context, pure, rules)


@pytest.mark.parametrize("text", [
    "end_turn(" + "1+" * 600 + "1)",                 # a long, flat sum
    "if " + "not " * 600 + "true {}",                # a long chain of `not`
    "if true {}" + " else if true {}" * 490,         # a long else-if ladder
    "let x = " + "1 - " * 1500 + "1",
])
def test_long_chains_only_raise_effect_error(text):
    """Examples the token soup finds only at high example counts, kept as regressions."""
    assert len(text) <= 8000  # under the length limit: the parser must really parse it
    check_effect(text, "play", False, {})


# -- (d) mutated scenario files: kittens test reports, never crashes ------------
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


@st.composite
def mutated_scenario(draw):
    path = draw(st.sampled_from(SCENARIOS))
    lines = path.read_text(encoding="utf-8").replace(
        "../../../../editions/", str(ROOT / "editions") + "/").replace(
        "../../../editions/", str(ROOT / "editions") + "/").splitlines()
    for _ in range(draw(st.integers(1, 4))):
        lines = draw(mutation(lines))
    return "\n".join(lines) + "\n"


@fuzz_settings(150)
@given(text=mutated_scenario())
def test_mutated_scenarios_pass_or_fail_but_never_raise(text):
    from kittens.authoring.scenario import ScenarioRunner

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scenario.yaml")
        Path(path).write_text(text, encoding="utf-8")
        outcome = ScenarioRunner().run(path)
        assert outcome.passed or outcome.failures  # a failure always says why
        check_report([path])
