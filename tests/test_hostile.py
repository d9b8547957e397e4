"""Hostile rule files: each gets one clear diagnostic, quickly, in bounded memory.

The product promise is that a bad or malicious rule file always produces a
diagnostic with a file, a line, a column and a code, within a couple of
seconds and bounded memory, and never a Python traceback. Every test here
builds one hostile input in ``tmp_path``, validates it and checks the exact
code and position. The time and memory bounds are generous safety nets that
catch hangs and blow-ups, not performance targets.

A few cases also run the real command line (``python -m kittens validate``)
to check the exit status and that no traceback reaches the user.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from kittens.interpreter.lang import loader
from kittens.interpreter.lang.diagnostics import CODES
from kittens.interpreter.lang.loader import load_file, read_text
from kittens.interpreter.lang.parser import MAX_EFFECT_CHARS, MAX_NESTING, EffectError, parse_program
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import UsageError
from kittens.interpreter.rules.workspace import MAX_FINDINGS_PER_KIND

ROOT = Path(__file__).resolve().parent.parent

# generous: a hang or a quadratic blow-up, not slowness, fails these (a 200k-entry pile
# under tracemalloc took 11-12.5 CPU s on a VM four times slower than usual, 2026-11-26)
MAX_SECONDS = 30
# The bound is on CPU seconds, not wall time: the machine running the tests may be shared
# and loaded many times over, which stretches wall time but not the work done. A wall
# limit this many times larger still catches a hang.
HANG_FACTOR = 6
MAX_BYTES = 200 * 1024 * 1024

# A card library that is valid apart from whatever a test puts in its effect.
CARD_HEAD = """\
format: 1
kind: cards
cards:
  - id: trap
    title: Trap
    text: A card.
    when: own_turn
    effect: """
EFFECT_LINE = CARD_HEAD.count("\n") + 1  # the effect's value sits on this line ...
EFFECT_COLUMN = len(CARD_HEAD.rsplit("\n", 1)[1]) + 1  # ... starting at this column


# -- helpers -------------------------------------------------------------------
def validate(*paths) -> list:
    """Validate in-process under time and memory bounds; return the diagnostics.

    tracemalloc sees what Python allocates; what libyaml allocates in C is measured
    in a fresh process by test_c_allocations_stay_bounded_in_a_fresh_process (this
    process's own peak only ever grows, so a check of it here could not fail)."""
    tracemalloc.start()
    start = time.process_time()
    try:
        report = validate_paths([str(p) for p in paths])
    finally:
        elapsed = time.process_time() - start
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < MAX_SECONDS, f"validation took {elapsed:.1f} CPU seconds"
    assert peak < MAX_BYTES, f"validation allocated {peak / 1e6:.0f} MB"
    for d in report.diagnostics:
        assert d.code in CODES, d
        assert d.line >= 0 and d.column >= 0, d
        rendered = d.render()
        assert len(rendered) < 2000, "a diagnostic must show a window of a huge line, not all of it"
    return report.diagnostics


def only(diagnostics, code=None):
    """The single diagnostic of a list (of ``code``, when given)."""
    found = [d for d in diagnostics if code is None or d.code == code]
    assert len(found) == 1, diagnostics
    return found[0]


def where(d) -> tuple:
    return d.code, d.line, d.column


def write(path: Path, content) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def cli(*args, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the real command line. ``timeout`` bounds the CPU seconds the command may use;
    a hang (HANG_FACTOR times that in wall time) fails the test instead of stalling the
    suite."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        result = subprocess.run([sys.executable, "-m", "kittens", "validate", *map(str, args)],
                                capture_output=True, text=True, timeout=timeout * HANG_FACTOR,
                                stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`kittens validate {' '.join(map(str, args))}` did not finish in "
                    f"{timeout * HANG_FACTOR}s")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert cpu < timeout, f"`kittens validate` used {cpu:.1f} CPU seconds"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    assert "internal error" not in result.stderr, result.stderr
    return result


def cli_codes(path) -> tuple[int, list]:
    """Exit status and (code, line, column) of each finding, through ``--format json``."""
    result = cli("--format", "json", path)
    found = json.loads(result.stdout)["diagnostics"]
    return result.returncode, [(d["code"], d["line"], d["column"]) for d in found]


# -- encoding ------------------------------------------------------------------
@pytest.mark.parametrize("raw, line, column, byte", [
    # the bad byte on line 3, after plain ASCII
    (b"format: 1\nkind: cards\ndescription: ab\xffcd\n", 3, 16, 0xFF),
    # after multi-byte characters the column still counts characters, as every other
    # diagnostic (and every editor) does: d e s c ... ' ' é € -> the bad byte is the 16th
    ("format: 1\ndescription: é€".encode() + b"\xff\n", 2, 16, 0xFF),
    # a file that starts with a byte-order mark: the mark is not a column, and the
    # bad byte on line 2 is on line 2
    (b"\xef\xbb\xbfab\n\xff\n", 2, 1, 0xFF),
    (b"\xef\xbb\xbfformat: 1\nkind: \xff\n", 2, 7, 0xFF),
    # a multi-byte sequence cut short by the end of the file
    (b"a: b\nc: \xc3", 2, 4, 0xC3),
    # CRLF and CR line ends (YAML, and the rest of the loader, count a lone CR as one)
    (b"a: b\r\nc: \xff", 2, 4, 0xFF),
    (b"a: b\rc: \xff", 2, 4, 0xFF),
    # an encoded UTF-16 surrogate and an overlong encoding are not UTF-8 either
    (b"a: \xed\xa0\x80\n", 1, 4, 0xED),
    (b"a: \xc0\xaf\n", 1, 4, 0xC0),
    # a UTF-16 file (with its byte-order mark)
    ("format: 1\n".encode("utf-16"), 1, 1, 0xFF),
], ids=["ascii", "after-multibyte", "bom-line2", "bom-line2-col7", "truncated", "crlf", "cr",
        "surrogate", "overlong", "utf16"])
def test_invalid_utf8_is_an_encoding_error_at_the_bad_byte(tmp_path, raw, line, column, byte):
    d = only(validate(write(tmp_path / "bad.yaml", raw)))
    assert where(d) == ("encoding", line, column), d
    assert f"0x{byte:02x}" in d.message, d.message


def test_invalid_utf8_at_the_command_line(tmp_path):
    path = write(tmp_path / "bad.yaml", b"format: 1\nkind: cards\ndescription: ab\xffcd\n")
    assert cli_codes(path) == (1, [("encoding", 3, 16)])


def test_a_utf8_bom_file_that_is_otherwise_valid_loads(tmp_path):
    # the shipped files, each saved with a byte-order mark, still validate cleanly
    for name in ("rulebook/original.yaml", "rulebook/combos.yaml", "editions/original.yaml"):
        write(tmp_path / name, b"\xef\xbb\xbf" + (ROOT / name).read_bytes())
    assert validate(tmp_path / "editions" / "original.yaml") == []
    assert validate(tmp_path / "rulebook") == []


def test_positions_in_a_bom_file_ignore_the_mark(tmp_path):
    d = only(validate(write(tmp_path / "bom.yaml", b"\xef\xbb\xbfformat: 1\nkind: cardz\n")))
    assert where(d) == ("unknown-kind", 2, 7)


# -- tags ----------------------------------------------------------------------
TAGGED = [
    # (yaml text; the line and column of the tag)
    ("x: !!python/object/apply:os.system ['touch {marker}']\n", 1, 4),
    ("x: !!python/object/new:os.system ['touch {marker}']\n", 1, 4),
    ("x: !!python/object/apply:subprocess.call [[touch, '{marker}']]\n", 1, 4),
    ("x: !<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']\n", 1, 4),
    ("%TAG !py! tag:yaml.org,2002:python/\n---\nx: !py!object/apply:os.system ['touch {marker}']\n", 3, 4),
    ("!!python/object/apply:os.system\n- touch {marker}\n", 1, 1),
    ("format: 1\nkind: cards\ncards:\n  - id: a\n"
     "    title: !!python/object/apply:os.system ['touch {marker}']\n", 5, 12),
    ("? !!python/object/apply:os.system ['touch {marker}']\n: 1\n", 1, 3),
    ("x: !!python/name:os.system\n", 1, 4),
    ("x: !!python/module:os\n", 1, 4),
    ("x: !!python/object:builtins.object {{}}\n", 1, 4),
    ("x: !!python/tuple [1, 2]\n", 1, 4),
    ("x: !!python/str abc\n", 1, 4),
    ("x: !!binary aGVsbG8=\n", 1, 4),
    ("x: !!set {{a, b}}\n", 1, 4),
    ("x: !!omap [a: 1]\n", 1, 4),
    ("x: !!pairs [a: 1]\n", 1, 4),
    ("x: !!timestamp 2001-12-14\n", 1, 4),
    ("x: !!merge <<\n", 1, 4),
    ("x: !card attack\n", 1, 4),
]


TAG_IDS = ["apply-os-system", "new-os-system", "apply-subprocess", "verbatim", "tag-directive",
           "top-level", "in-a-card", "on-a-key", "python-name", "python-module", "python-object",
           "python-tuple", "python-str", "binary", "set", "omap", "pairs", "timestamp", "merge",
           "local-tag"]


@pytest.mark.parametrize("text, line, column", TAGGED, ids=TAG_IDS)
def test_program_object_and_unknown_tags_are_refused_without_side_effects(tmp_path, text, line, column):
    marker = tmp_path / "pwned"
    path = write(tmp_path / "tag.yaml", text.format(marker=marker))
    d = only(validate(path))
    assert where(d) == ("yaml-tag", line, column), d
    assert not marker.exists(), "a tag ran code"


def test_a_tag_that_would_run_a_command_is_refused_at_the_command_line(tmp_path):
    marker = tmp_path / "pwned"
    path = write(tmp_path / "tag.yaml", f"x: !!python/object/apply:os.system ['touch {marker}']\n")
    assert cli_codes(path) == (1, [("yaml-tag", 1, 4)])
    assert not marker.exists()


@pytest.mark.parametrize("tag", ["!!map", "!!str", "!!int", "!!null"])
def test_a_core_tag_on_the_wrong_kind_of_node_is_refused(tmp_path, tag):
    # `cards: !!map` over a list: PyYAML's own safe loader refuses this, and the data
    # must not silently differ from what the file says it is
    text = f"format: 1\nkind: cards\ncards: {tag}\n  - {{id: a, title: A, text: t, when: own_turn}}\n"
    d = only(validate(write(tmp_path / "mismatch.yaml", text)))
    assert d.code in ("yaml-tag", "yaml-syntax"), d
    assert (d.line, d.column) == (3, 8), d


@pytest.mark.parametrize("text", [
    "x: !!bool maybe\n", "x: !!int ''\n", "x: !!float ''\n", "x: !!int '-'\n", "x: !!int _\n",
    "x: !!int 0x\n", "x: !!float '.'\n",
])
def test_a_core_tag_on_an_impossible_value_is_a_syntax_error(tmp_path, text):
    d = only(validate(write(tmp_path / "value.yaml", text)))
    assert where(d) == ("yaml-syntax", 1, 4), d


# -- size and expansion --------------------------------------------------------
BILLION_LAUGHS = """\
a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_billion_laughs_is_too_large(tmp_path):
    d = only(validate(write(tmp_path / "lol.yaml", BILLION_LAUGHS)))
    # 66,442 values are in when line 6 opens its list, and each `*e` counts 59,049:
    # the third `*e` of line 6 is the one that passes 200,000
    assert where(d) == ("yaml-too-large", 6, 16), d


def test_billion_laughs_at_the_command_line(tmp_path):
    path = write(tmp_path / "lol.yaml", BILLION_LAUGHS)
    assert cli_codes(path) == (1, [("yaml-too-large", 6, 16)])


def test_a_wide_alias_fan_out_is_too_large(tmp_path):
    text = "a: &a [" + "x, " * 1000 + "]\nb: [" + "*a, " * 300 + "]\n"
    d = only(validate(write(tmp_path / "fan.yaml", text)))
    assert d.code == "yaml-too-large" and d.line == 2, d


def test_a_100_mb_file_is_too_large_without_being_read(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:  # sparse: no 100 MB are written to disk
        handle.seek(100 * 1024 * 1024 - 1)
        handle.write(b"\n")
    d = only(validate(path))
    assert where(d) == ("file-too-large", 1, 1), d  # a whole-file finding points at 1:1
    assert "104,857,600" in d.message


def test_a_file_just_over_the_limit_is_too_large(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as handle:
        handle.truncate(loader.MAX_FILE_BYTES + 1)
    assert where(only(validate(path))) == ("file-too-large", 1, 1)


def test_a_200k_entry_pile_names_the_real_limit_not_aliases(tmp_path):
    # no alias in sight: the message must not blame aliases, and must give the limit
    path = write(tmp_path / "pile.yaml", (
        "format: 1\nkind: scenario\ndescription: x\nedition: original.yaml\nplayers: 2\n"
        "draw_pile: [" + ", ".join(["tacocat"] * 200_001) + "]\nsteps: []\n"))
    d = only(validate(path))
    assert d.code == "yaml-too-large" and d.line == 6, d
    assert "alias" not in d.message and f"{loader.MAX_NODES:,}" in d.message, d.message


def test_an_alias_bomb_is_still_blamed_on_aliases(tmp_path):
    d = only(validate(write(tmp_path / "lol.yaml", BILLION_LAUGHS)))
    assert "alias" in d.message and f"{loader.MAX_NODES:,}" in d.message, d.message


# -- depth ---------------------------------------------------------------------
DEPTH = 100_000
TOO_DEEP_AT = loader.MAX_DEPTH + 1  # the first container past the limit


def test_100k_nested_flow_lists_are_too_deep(tmp_path):
    d = only(validate(write(tmp_path / "deep.yaml", "[" * DEPTH + "]" * DEPTH + "\n")))
    assert where(d) == ("yaml-too-deep", 1, TOO_DEEP_AT), d


def test_100k_unclosed_flow_lists_are_too_deep(tmp_path):
    d = only(validate(write(tmp_path / "deep.yaml", "[" * DEPTH)))
    assert where(d) == ("yaml-too-deep", 1, TOO_DEEP_AT), d


def test_100k_nested_flow_mappings_are_too_deep(tmp_path):
    text = "{a: " * DEPTH + "x" + "}" * DEPTH + "\n"
    d = only(validate(write(tmp_path / "deep.yaml", text)))
    assert where(d) == ("yaml-too-deep", 1, 4 * loader.MAX_DEPTH + 1), d


def test_100k_nested_block_lists_are_too_deep(tmp_path):
    # `- - - x` is block style: each `- ` opens a list indented two columns further
    d = only(validate(write(tmp_path / "deep.yaml", "- " * DEPTH + "x\n")))
    assert where(d) == ("yaml-too-deep", 1, 2 * loader.MAX_DEPTH + 1), d


def test_block_indentation_as_deep_as_the_size_limit_allows_is_too_deep(tmp_path):
    # 100,000 levels of real indentation would be gigabytes (and file-too-large);
    # 1,400 levels fill most of the 2 MB a rule file may hold
    text = "".join("  " * level + "-\n" for level in range(1400))
    assert len(text) < loader.MAX_FILE_BYTES
    d = only(validate(write(tmp_path / "deep.yaml", text)))
    assert where(d) == ("yaml-too-deep", TOO_DEEP_AT, 2 * loader.MAX_DEPTH + 1), d


def test_deeply_indented_block_mappings_are_too_deep(tmp_path):
    text = "".join("  " * level + "a:\n" for level in range(1400))
    d = only(validate(write(tmp_path / "deep.yaml", text)))
    assert where(d) == ("yaml-too-deep", TOO_DEEP_AT, 2 * loader.MAX_DEPTH + 1), d


def test_100k_levels_of_block_indentation_are_too_large(tmp_path):
    # the honest 100,000-level indented file: sparse, since its indentation alone is
    # about 10 GB; it is refused by size before anything reads it
    path = tmp_path / "deep.yaml"
    with open(path, "wb") as handle:
        handle.write(b"a:\n  a:\n    a:\n")
        handle.seek(sum(2 * level + 3 for level in range(DEPTH)) - 1)
        handle.write(b"\n")
    assert where(only(validate(path))) == ("file-too-large", 1, 1)


def test_deep_nesting_at_the_command_line(tmp_path):
    path = write(tmp_path / "deep.yaml", "[" * DEPTH + "]" * DEPTH + "\n")
    assert cli_codes(path) == (1, [("yaml-too-deep", 1, TOO_DEEP_AT)])


# -- effects -------------------------------------------------------------------
def test_100k_open_parentheses_in_an_effect_are_too_complex(tmp_path):
    d = only(validate(write(tmp_path / "parens.yaml", CARD_HEAD + "(" * 100_000 + "\n")))
    # the effect language's own limit, not a generic schema complaint
    assert where(d) == ("effect-too-complex", EFFECT_LINE, EFFECT_COLUMN), d


def test_100k_balanced_parentheses_in_a_quoted_effect_are_too_complex(tmp_path):
    text = CARD_HEAD + '"' + "(" * 50_000 + ")" * 50_000 + '"\n'
    d = only(validate(write(tmp_path / "parens.yaml", text)))
    assert d.code == "effect-too-complex" and d.line == EFFECT_LINE, d


def test_brackets_nested_past_the_limit_are_too_complex_at_the_bracket(tmp_path):
    depth = MAX_NESTING + 6
    text = CARD_HEAD + "draw(" + "(" * depth + "me" + ")" * depth + ")\n"
    d = only(validate(write(tmp_path / "parens.yaml", text)))
    # `draw(` is level 1, so the (MAX_NESTING + 1)th bracket is the MAX_NESTING-th `(`
    column = EFFECT_COLUMN + len("draw(") + MAX_NESTING - 1
    assert where(d) == ("effect-too-complex", EFFECT_LINE, column), d


_CHILD = """
import resource, sys
from kittens.interpreter.rules.check import validate_paths
with open("/proc/self/statm") as handle:  # pages of address space in use now
    size = int(handle.read().split()[0]) * resource.getpagesize()
limit = size + int(sys.argv[1])  # every allocation, Python's or libyaml's, counts against it
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    exec(sys.argv[2])
except MemoryError:
    print("out of memory")
    sys.exit(1)
print("fine")
"""


def _within_memory(code: str, budget: int = MAX_BYTES) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh process that may grow by at most ``budget`` bytes of address
    space: going over raises MemoryError there (a bound the kernel enforces, so it holds
    for memory C libraries allocate too, and cannot under-report)."""
    return subprocess.run([sys.executable, "-c", _CHILD, str(budget), code], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("name, text", [
    ("laughs", BILLION_LAUGHS),
    ("pile", "format: 1\nkind: scenario\ndescription: x\nedition: original.yaml\nplayers: 2\n"
             "draw_pile: [" + ", ".join(["tacocat"] * 200_001) + "]\nsteps: []\n"),
    ("deep", "[" * 100_000),
    ("long", CARD_HEAD + "draw(me) " * 210_000 + "\n"),
])
def test_c_allocations_stay_bounded_in_a_fresh_process(tmp_path, name, text):
    path = write(tmp_path / f"{name}.yaml", text)
    done = _within_memory(f"validate_paths([{str(path)!r}])")
    assert done.returncode == 0 and "fine" in done.stdout, f"{name}: {done.stdout}{done.stderr[-2000:]}"


def test_the_fresh_process_bound_can_fail():
    done = _within_memory("block = b'x' * (400 * 1024 * 1024)")
    assert done.returncode == 1 and "out of memory" in done.stdout


def test_deep_parentheses_in_the_parser_itself():
    with pytest.raises(EffectError) as caught:
        parse_program("(" * 100_000)
    assert caught.value.code == "effect-too-complex"


def test_a_19_mb_single_line_effect_is_too_complex(tmp_path):
    text = CARD_HEAD + "draw(me) " * 210_000 + "\n"  # 1.9 MB on one line
    assert loader.MAX_FILE_BYTES > len(text) > 1_800_000
    d = only(validate(write(tmp_path / "long.yaml", text)))
    assert where(d) == ("effect-too-complex", EFFECT_LINE, EFFECT_COLUMN), d


def test_a_19_mb_effect_in_the_edition_turn_is_too_complex(tmp_path):
    _copy_shipped(tmp_path)
    path = tmp_path / "editions" / "original.yaml"
    text = path.read_text(encoding="utf-8")
    old = "  draw: |\n    draw(me)\n    end_turn()\n"
    assert old in text
    write(path, text.replace(old, "  draw: " + "draw(me) " * 210_000 + "\n"))
    d = only(validate(path))
    line = text[:text.index(old)].count("\n") + 1
    assert where(d) == ("effect-too-complex", line, 9), d


def test_an_effect_just_over_the_length_limit_is_too_complex(tmp_path):
    effect = ("draw(me) " * (MAX_EFFECT_CHARS // 9 + 2)).strip()
    assert MAX_EFFECT_CHARS < len(effect) < MAX_EFFECT_CHARS + 20
    d = only(validate(write(tmp_path / "long.yaml", CARD_HEAD + effect + "\n")))
    assert d.code == "effect-too-complex", d


def test_a_19_mb_single_line_description_loads(tmp_path):
    text = ("format: 1\nkind: cards\ndescription: " + "x" * 1_900_000
            + "\ncards:\n  - {id: a, title: A, text: t, when: own_turn}\n")
    assert validate(write(tmp_path / "long.yaml", text)) == []


def test_a_syntax_error_at_the_end_of_a_19_mb_line(tmp_path):
    text = "format: 1\nkind: cards\ndescription: " + "x" * 1_900_000 + ": y\n"
    d = only(validate(write(tmp_path / "long.yaml", text)))
    assert where(d) == ("yaml-syntax", 3, len("description: ") + 1_900_000 + 1), d


@pytest.mark.parametrize("effect", [
    "end_turn(" + "1 + " * 1500 + "1)",               # a long flat sum
    "if " + "not " * 1500 + "true {}",                # a long chain of `not`
    "if true {}" + " else if true {}" * 495,          # a long else-if ladder
], ids=["sum", "not", "else-if"])
def test_long_chains_in_an_effect_get_a_finding_not_a_crash(tmp_path, effect):
    assert len(effect) <= MAX_EFFECT_CHARS
    validate(write(tmp_path / "chain.yaml", CARD_HEAD + "|\n      " + effect + "\n"))


def test_an_edition_compiled_again_counts_its_effect_text_once(monkeypatch):
    # `kittens validate tests/scenarios` compiles the Original once per scenario file:
    # counted each time, its few hundred characters of effects passed the per-file
    # budget after some 280 scenarios, and the 281st got a false effect-too-complex
    from kittens.about import EDITIONS_DIR
    from kittens.interpreter.rules import workspace
    from kittens.interpreter.rules.edition import compile_edition

    monkeypatch.setattr(workspace, "MAX_EFFECT_TEXT_PER_FILE", 1500)  # above one compile's text
    ws = workspace.Workspace()
    for _ in range(10):
        assert compile_edition(ws, str(EDITIONS_DIR / "original.yaml")) is not None
    assert not [d for d in ws.diagnostics if d.code == "effect-too-complex"]


def test_thousands_of_findings_in_long_effects_stay_fast(tmp_path):
    # 30 cards with an 8,000-character effect of 990 unknown calls each: every
    # finding is mapped back to a file position, which must not cost time in
    # proportion to the effect's length (or 2 MB of these would take minutes)
    effect = "drw(me) " * 990
    text = "format: 1\nkind: cards\ncards:\n" + "".join(
        f"  - {{id: c{i}, title: x, text: x, when: own_turn, effect: '{effect}'}}\n" for i in range(30))
    result = cli("--format", "json", write(tmp_path / "many.yaml", text), timeout=MAX_SECONDS)
    assert result.returncode == 1
    found = json.loads(result.stdout)["diagnostics"]
    codes = [d["code"] for d in found]
    # 240 KB of effects: past the per-file budget one effect-too-complex ends the checks
    assert set(codes) == {"unknown-primitive", "effect-too-complex"}
    # the first few findings of a kind are told, and one more counts the rest (thousands)
    assert codes.count("effect-too-complex") == 1
    assert codes.count("unknown-primitive") == MAX_FINDINGS_PER_KIND + 1
    rest = next(d["message"] for d in found if "more like this" in d["message"])
    assert int(rest.split()[1].replace(",", "")) > 10_000 - MAX_FINDINGS_PER_KIND, rest


def test_many_misspelt_deck_cards_stay_fast(tmp_path):
    # every unknown card id gets a "did you mean" over every known id: with 1,500
    # cards (120 kB) that must not take quadratic time
    n = 1500
    write(tmp_path / "rulebook" / "cards.yaml", "format: 1\nkind: cards\ncards:\n" + "".join(
        f"  - {{id: card_number_{i}, title: x, text: x, when: own_turn, effect: 'draw(me)'}}\n"
        for i in range(n)))
    edition = write(tmp_path / "editions" / "big.yaml", (
        "format: 1\nkind: edition\nid: big\nname: Big\nplayers: {min: 2, max: 5}\n"
        "include: [../rulebook/cards.yaml]\ndeck:\n"
        + "".join(f"  card_numbr_{i}: 1\n" for i in range(n))
        + "setup:\n  - shuffle: draw_pile\nturn:\n  draw: draw(me)\nwin: last_standing\n"))
    result = cli("--format", "json", edition, timeout=MAX_SECONDS)
    found = json.loads(result.stdout)["diagnostics"]
    codes = [d["code"] for d in found]
    # every one is found; the first few are told and one more counts the rest
    assert codes.count("unknown-card") == MAX_FINDINGS_PER_KIND + 1
    assert any(f"and {n - MAX_FINDINGS_PER_KIND:,} more like this" in d["message"] for d in found)


@pytest.mark.parametrize("steps, codes", [(200, ["too-few-kittens"]), (4000, ["bad-value"])])
def test_many_setup_steps_over_a_large_deck_stay_fast(tmp_path, steps, codes):
    # the setup dry run runs every step for every player count; each step must not
    # re-sort the whole deck (2,000 cards x 200 steps x 20 player counts). Longer
    # setups are refused by the schema (at most 200 steps).
    n = 2000
    write(tmp_path / "rulebook" / "cards.yaml", "format: 1\nkind: cards\ncards:\n" + "".join(
        f"  - {{id: c{i}, title: x, text: x, when: own_turn, effect: 'draw(me)'}}\n" for i in range(n)))
    edition = write(tmp_path / "editions" / "big.yaml", (
        "format: 1\nkind: edition\nid: big\nname: Big\nplayers: {min: 1, max: 20}\n"
        "include: [../rulebook/cards.yaml]\ndeck:\n"
        + "".join(f"  c{i}: 1\n" for i in range(n))
        + "setup:\n" + "  - deal: {count: 0}\n" * steps
        + "turn:\n  draw: draw(me)\nwin: last_standing\n"))
    result = cli("--format", "json", edition, timeout=MAX_SECONDS)
    assert [d["code"] for d in json.loads(result.stdout)["diagnostics"]] == codes


# -- control characters and NUL ------------------------------------------------
@pytest.mark.parametrize("text, line, column", [
    ("format: 1\nkind: cards\ndescription: a\x07b\n", 3, 15),      # BEL
    ("format: 1\ndescription: \x1b[31mred\n", 2, 14),              # ESC
    ("a: b\x7f\n", 1, 5),                                          # DEL
    ("a: b\x9f\n", 1, 5),                                          # a C1 control
    ("a: b\ufffe\n", 1, 5),                                        # a non-character
    # after multi-byte characters the column counts characters, and the line is right
    ("format: 1\ndescription: ééé\x07\n", 2, 17),
    ("é: ééé\nfoo: ééé\x1b\n", 2, 9),
    ("a: 😀😀\x07\n", 1, 6),
    ("a: b\rc: \x07\r", 2, 4),                                    # CR line ends
], ids=["bel", "esc", "del", "c1", "fffe", "after-accents", "after-accents-2", "after-emoji", "cr"])
def test_control_characters_are_syntax_errors_at_the_character(tmp_path, text, line, column):
    d = only(validate(write(tmp_path / "ctrl.yaml", text)))
    assert where(d) == ("yaml-syntax", line, column), d
    assert "control character" in d.message


@pytest.mark.parametrize("raw, line, column", [
    (b"format: 1\nkind: cards\ndescription: a\x00b\n", 3, 15),
    (b"\x00" * 1000, 1, 1),
    (b"format: 1\n\x00\n", 2, 1),
    ("a: é\x00\n".encode(), 1, 5),
], ids=["in-a-value", "only-nul", "line-start", "after-accent"])
def test_nul_bytes_are_syntax_errors_at_the_byte(tmp_path, raw, line, column):
    d = only(validate(write(tmp_path / "nul.yaml", raw)))
    assert where(d) == ("yaml-syntax", line, column), d


# -- empty and odd documents ---------------------------------------------------
@pytest.mark.parametrize("raw", [b"", b"\n\n", b"   \n  \n", b"\xef\xbb\xbf"],
                         ids=["empty", "newlines", "blanks", "bom-only"])
def test_an_empty_file_says_so(tmp_path, raw):
    assert where(only(validate(write(tmp_path / "empty.yaml", raw)))) == ("empty-file", 1, 1)


def test_an_empty_file_at_the_command_line(tmp_path):
    assert cli_codes(write(tmp_path / "empty.yaml", b"")) == (1, [("empty-file", 1, 1)])


def test_a_file_of_only_comments_is_empty(tmp_path):
    text = "# yaml-language-server: $schema=../schema/cards.schema.json\n# nothing here\n"
    assert where(only(validate(write(tmp_path / "comments.yaml", text)))) == ("empty-file", 1, 1)


@pytest.mark.parametrize("text, line", [
    ("format: 1\nkind: cards\n---\nformat: 1\n", 3),
    ("---\nformat: 1\n---\nkind: cards\n", 3),
    ("format: 1\n...\n---\nkind: cards\n", 3),
    ("a: 1\n--- \nb: 2\n---\nc: 3\n", 2),
    ("---\n---\n", 2),
])
def test_two_documents_are_refused_at_the_second(tmp_path, text, line):
    d = only(validate(write(tmp_path / "two.yaml", text)))
    assert where(d) == ("multiple-documents", line, 1), d


@pytest.mark.parametrize("text", ["- format: 1\n- kind: cards\n", "[format, kind]\n", "just text\n",
                                  "42\n", "~\n", "|\n  a block\n"])
def test_a_top_level_that_is_not_a_mapping_is_refused(tmp_path, text):
    assert where(only(validate(write(tmp_path / "top.yaml", text)))) == ("not-a-mapping", 1, 1)


@pytest.mark.parametrize("text, line, column", [
    ("[a, b]: 1\n", 1, 1),
    ("format: 1\n[a, b]: 1\n", 2, 1),
    ("? [a, b]\n: 1\n", 1, 3),
    ("? - a\n  - b\n: 1\n", 1, 3),
    ("{a: 1}: x\n", 1, 1),
    ("x: {[a]: 1}\n", 1, 5),
    ("a: &k x\n*k : 1\n", 2, 1),
])
def test_a_mapping_key_that_is_not_plain_is_a_syntax_error(tmp_path, text, line, column):
    d = only(validate(write(tmp_path / "key.yaml", text)))
    assert where(d) == ("yaml-syntax", line, column), d


# -- paths that are not files --------------------------------------------------
def test_load_file_on_a_directory_is_an_io_error(tmp_path):
    doc, problems = load_file(str(tmp_path))
    assert doc is None
    assert [(p.code, p.line, p.column) for p in problems] == [("io-error", 1, 1)]
    text, problems = read_text(str(tmp_path))
    assert text is None and [p.code for p in problems] == ["io-error"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_an_io_error(tmp_path):
    path = write(tmp_path / "secret.yaml", "format: 1\n")
    path.chmod(0)
    assert where(only(validate(path))) == ("io-error", 1, 1)


def _copy_shipped(tmp_path: Path) -> None:
    for name in ("rulebook/original.yaml", "rulebook/combos.yaml", "editions/original.yaml"):
        write(tmp_path / name, (ROOT / name).read_bytes())


@pytest.mark.parametrize("target", ["../rulebook", ".", "../rulebook/"])
def test_an_edition_including_a_directory_names_the_include(tmp_path, target):
    _copy_shipped(tmp_path)
    path = tmp_path / "editions" / "original.yaml"
    text = path.read_text(encoding="utf-8")
    old = "  - ../rulebook/combos.yaml\n"
    write(path, text.replace(old, f"  - {target}\n"))
    line = text[:text.index(old)].count("\n") + 1
    found = [where(d) for d in validate(path) if d.code == "unknown-file"]
    assert found == [("unknown-file", line, 5)]


def test_a_library_using_a_directory_names_the_entry(tmp_path):
    path = write(tmp_path / "lib" / "cards.yaml", "format: 1\nkind: cards\nuses: [sub]\ncards:\n"
                 "  - {id: a, title: A, text: t, when: own_turn}\n")
    (tmp_path / "lib" / "sub").mkdir()
    assert [where(d) for d in validate(path)] == [("unknown-file", 3, 8)]


def test_a_long_chain_of_uses_is_not_a_crash(tmp_path):
    # 1,200 small card files, each using the next: loading them must not recurse once
    # per file (Python's stack gives out near 1,000)
    count = 1200
    for index in range(count):
        uses = f"uses: [f{index + 1}.yaml]\n" if index + 1 < count else ""
        write(tmp_path / f"f{index}.yaml", f"format: 1\nkind: cards\n{uses}cards:\n"
              f"  - {{id: c{index}, title: x, text: x, when: own_turn}}\n")
    validate(tmp_path / "f0.yaml")  # must not raise
    result = cli(tmp_path / "f0.yaml")
    assert result.returncode in (0, 1), result.stderr


def test_a_library_using_itself_through_a_symlinked_folder_is_a_cycle(tmp_path):
    # `l` -> `.`: l/a.yaml, l/l/a.yaml, ... are all a.yaml; that is one include cycle,
    # not forty files that define the same card again
    (tmp_path / "l").symlink_to(".")
    path = write(tmp_path / "a.yaml", "format: 1\nkind: cards\nuses: [l/a.yaml]\ncards:\n"
                 "  - {id: c, title: x, text: x, when: own_turn}\n")
    assert [where(d) for d in validate(path)] == [("include-cycle", 3, 8)]


def test_a_folder_named_like_a_rule_file_is_searched_not_read(tmp_path):
    folder = tmp_path / "rules.yaml"
    folder.mkdir()
    with pytest.raises(UsageError):
        validate_paths([str(folder)])
    result = cli(folder)
    assert result.returncode == 2 and "no rule files" in result.stderr


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    # `kittens validate .` in an untrusted checkout must not block on a named pipe
    # (or a link to one) that happens to end in .yaml
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = cli("--format", "json", fifo, timeout=MAX_SECONDS)
    assert result.returncode == 1
    assert [d["code"] for d in json.loads(result.stdout)["diagnostics"]] == ["io-error"]


def test_a_fifo_inside_a_folder_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    shutil.copy(ROOT / "rulebook" / "original.yaml", tmp_path / "cards.yaml")
    result = cli("--format", "json", tmp_path, timeout=MAX_SECONDS)
    assert result.returncode == 1
    assert [d["code"] for d in json.loads(result.stdout)["diagnostics"]] == ["io-error"]


def test_a_missing_path_is_a_usage_error_without_a_traceback(tmp_path):
    missing = tmp_path / "no" / "such.yaml"
    with pytest.raises(UsageError):
        validate_paths([str(missing)])
    result = cli(missing)
    assert result.returncode == 2
    assert f"no such file or folder: {missing}" in result.stderr
    assert result.stdout == ""


def test_effect_text_per_file_is_budgeted(tmp_path):
    # 2 MB of valid effects would take tens of seconds to parse; past the per-file
    # budget the validator stops parsing that file's effects and says so once
    effect = "draw(me) " * 880
    text = "format: 1\nkind: cards\ncards:\n" + "".join(
        f"  - {{id: c{i}, title: x, text: x, when: own_turn, effect: '{effect}'}}\n" for i in range(250))
    path = write(tmp_path / "big.yaml", text)
    diagnostics = validate_paths([str(path)]).diagnostics
    assert [d.code for d in diagnostics] == ["effect-too-complex"]
    assert "KB of effect text" in diagnostics[0].message
    assert diagnostics[0].line > 4  # the first cards were parsed and checked


# -- long values in messages -----------------------------------------------------
SCENARIO_HEAD = ("format: 1\nkind: scenario\ndescription: x\n"
                 f"edition: {ROOT / 'editions' / 'original.yaml'}\nplayers: 2\n")


def test_a_5000_card_hand_is_quoted_short(tmp_path):
    path = write(tmp_path / "hand.yaml", SCENARIO_HEAD + "hands:\n  0: ["
                 + ", ".join(["tacocat"] * 5000) + "]\nsteps: []\n")
    d = only(validate(path), "bad-value")
    assert (d.line, d.column) == (7, 6), d
    assert len(d.message) < 200, d.message
    assert "5,000" in d.message and "500" in d.message, d.message


def test_a_long_list_quoted_in_a_message_ends_with_how_many_more(tmp_path):
    # a list where one text is wanted: the value is quoted, cut short
    path = write(tmp_path / "lib.yaml", "format: 1\nkind: cards\ncards:\n  - id: a\n"
                 "    title: A\n    text: t\n    when: [" + ", ".join(f"w{i}" for i in range(3000))
                 + "]\n")
    d = only(validate(path))
    assert len(d.message) < 300, d.message


def test_a_very_long_bad_id_is_quoted_short(tmp_path):
    path = write(tmp_path / "lib.yaml", "format: 1\nkind: cards\ncards:\n  - id: Bad"
                 + "x" * 20_000 + "\n    title: A\n    text: t\n    when: own_turn\n")
    found = validate(path)
    assert found and all(len(d.message) < 300 for d in found), [d.message[:300] for d in found]
    assert any("more characters" in d.message for d in found), [d.message[:300] for d in found]


def test_every_message_is_bounded(tmp_path):
    # the last line of defence: no message runs on for pages, whatever it quotes
    from kittens.interpreter.lang.diagnostics import MAX_MESSAGE, Diagnostic

    d = Diagnostic(path="x.yaml", line=1, column=1, severity="error", code="bad-value",
                   message="y" * 100_000 + " (the end)")
    assert len(d.message) <= MAX_MESSAGE and d.message.endswith("(the end)"), d.message[-50:]


def test_a_deck_count_of_the_wrong_type_names_each_alternative_once(tmp_path):
    text = (ROOT / "editions" / "original.yaml").read_text(encoding="utf-8")
    text = text.replace("../rulebook/", str(ROOT / "rulebook") + "/")
    text = text.replace("\n  tacocat: 4\n", "\n  tacocat: [4]\n", 1)
    assert "tacocat: [4]" in text
    d = only(validate(write(tmp_path / "edition.yaml", text)))
    assert d.code == "wrong-type", d
    assert d.message == "should be a whole number or a mapping, not a list", d.message


def test_a_big_mapping_is_not_called_a_setup_step(tmp_path):
    # maxProperties bounds several mappings; only a setup step's limit is one key
    text = (ROOT / "editions" / "original.yaml").read_text(encoding="utf-8")
    text = text.replace("../rulebook/", str(ROOT / "rulebook") + "/")
    zones = "".join(f"  zone_{i}: {{public: true}}\n" for i in range(300))
    text = text.replace("\nparams:\n", f"\nzones:\n{zones}params:\n", 1)
    assert "\nzones:\n  zone_0" in text
    d = only(validate(write(tmp_path / "edition.yaml", text)), "bad-value")
    assert "setup step" not in d.message and len(d.message) < 300, d.message
    assert "300" in d.message and "32" in d.message, d.message


def test_did_you_mean_on_a_huge_word_stays_small():
    # a near-name search over many names builds every one-letter deletion of the word:
    # for a 20,000-character word that is 400 MB of strings
    from kittens.interpreter.lang.diagnostics import did_you_mean

    names = [f"card_{i}" for i in range(300)]
    tracemalloc.start()
    try:
        word = "card_" + "".join(chr(ord("a") + i % 26) for i in range(20_000))
        assert did_you_mean(word, names) == ""
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024, f"{peak / 1e6:.0f} MB"
    assert did_you_mean("card_2x", names) == "; did you mean 'card_2'?"


# -- effects that outgrow the engine's limits (interpreter/cost.py) ------------
def _house_rule(tmp_path: Path, effect: str) -> tuple[Path, int]:
    """A house rule on the Original adding one card with ``effect``; the effect's first line."""
    head = (f"format: 1\nkind: edition\nid: hostile\nname: Hostile\nextends: {ROOT / 'editions' / 'original.yaml'}\n"
            "add_cards: {trap: 2}\ndefine_cards:\n  - id: trap\n    title: Trap\n    text: A card.\n"
            "    when: own_turn\n    effect: |\n")
    body = "".join(f"      {line}\n" for line in effect.splitlines())
    return write(tmp_path / "house.yaml", head + body), head.count("\n") + 1


def test_a_number_with_thousands_of_digits_is_too_large_at_the_number(tmp_path):
    # Python refuses to read more than 4,300 digits; this was a traceback
    text = CARD_HEAD + "end_turn(" + "9" * 5000 + ")\n"
    d = only(validate(write(tmp_path / "digits.yaml", text)))
    assert where(d) == ("number-too-large", EFFECT_LINE, EFFECT_COLUMN + len("end_turn(")), d
    assert "5,000 digits" in d.message and len(d.message) < 200


def test_a_number_with_thousands_of_digits_at_the_command_line(tmp_path):
    path = write(tmp_path / "digits.yaml", CARD_HEAD + "end_turn(" + "9" * 5000 + ")\n")
    assert cli_codes(path) == (1, [("number-too-large", EFFECT_LINE, EFFECT_COLUMN + len("end_turn("))])


@pytest.mark.parametrize("number, code", [("1000000000", None), ("1000000001", "number-too-large"),
                                          ("000000000001", None)])
def test_the_largest_number_an_effect_may_write(tmp_path, number, code):
    found = validate(write(tmp_path / "n.yaml", CARD_HEAD + f"end_turn({number})\n"))
    assert [d.code for d in found] == ([code] if code else [])


def test_thirty_chained_squares_get_one_warning_at_the_first(tmp_path):
    effect = "\n".join(["let a0 = 1000000 * 1000000"] +
                       [f"let a{i} = a{i - 1} * a{i - 1}" for i in range(1, 31)] + ["end_turn(a30 - a30)"])
    path, line = _house_rule(tmp_path, effect)
    d = only(validate(path))
    assert (d.code, d.severity, d.line, d.column) == ("may-overflow", "warning", line, 16)
    assert "1,000,000,000,000" in d.message


def test_seven_nested_loops_get_one_warning_at_the_outermost(tmp_path):
    effect = "\n".join("  " * i + f"for c{i} in draw_pile {{" for i in range(7)) + "\n" + \
        "  " * 7 + "reveal(c6)\n" + "\n".join("  " * i + "}" for i in reversed(range(7)))
    path, line = _house_rule(tmp_path, effect)
    d = only(validate(path))
    assert (d.code, d.severity, d.line, d.column) == ("too-much-work", "warning", line, 7)
    assert "58 cards" in d.message  # the Original's 56 and two traps


def test_loops_are_estimated_only_where_the_deck_is_known(tmp_path):
    # a card library on its own has no deck: nothing to say about its loops
    text = CARD_HEAD + "|\n      for a in draw_pile {\n        for b in draw_pile {\n" \
        "          for c in draw_pile {\n            for d in draw_pile { reveal(d) }\n          }\n" \
        "        }\n      }\n"
    assert validate(write(tmp_path / "lib.yaml", text)) == []


@pytest.mark.parametrize("text, found", [
    ("[[[x]]]", (1, 3)), ("a: '[[[['\nb: [[[x]]]", (2, 6)), ('# [[[[\n{a: [[x]]}', (2, 6)),
    ("a: \"[[[[\" # [[[[\n", None), ("[[]][[x]]", None), ("a: b#[[[[\n", (1, 8)),
], ids=["flow", "after quotes", "after a comment", "only quoted", "siblings", "a hash in a word"])
def test_the_depth_past_the_limit_is_found_outside_quotes_and_comments(text, found):
    """Where PyYAML (6.0.4) stops at its own nesting limit first, the loader finds the
    place the rule files' limit was crossed itself (here the limit is 2)."""
    assert loader._deeper_than(text, 2) == found
