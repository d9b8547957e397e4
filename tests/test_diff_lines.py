"""`kittens diff` shows changed code (the turn's draw, a card's effect) as lines, marked
as a line diff marks them, never as one escaped string (issue 42)."""

from __future__ import annotations

from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app

ORIGINAL = ROOT / "editions" / "original.yaml"


def test_a_replaced_turn_draw_is_shown_as_readable_lines(write):
    path = write("house.yaml", f"""format: 1
kind: edition
id: house
name: House
extends: {ORIGINAL}
turn:
  draw: |
    draw(me)
    if count(hand(me)) > 9 {{
      discard(choose_card(hand(me)))
    }}
    end_turn()
""")
    result = CliRunner().invoke(app, ["diff", str(ORIGINAL), path])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "\\n" not in result.output and "'draw(me)" not in result.output
    start = next(i for i, line in enumerate(lines) if line.startswith("~ turn.draw:"))
    assert lines[start + 1:start + 6] == ["      draw(me)",
                                          "    + if count(hand(me)) > 9 {",
                                          "    +   discard(choose_card(hand(me)))",
                                          "    + }",
                                          "      end_turn()"]


def test_a_one_line_change_stays_on_one_line(write):
    path = write("house.yaml", f"format: 1\nkind: edition\nid: house\nname: House\n"
                               f"extends: {ORIGINAL}\nset_params: {{hand_size: 6}}\n")
    result = CliRunner().invoke(app, ["diff", "original", path])
    assert "~ params.hand_size: 7 -> 6" in result.output
