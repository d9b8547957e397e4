"""The designer probes (issue 42) keep working: every probe's rule files validate
without errors and its scenarios pass, as any rule file and scenario that passed before
must; and the latest probe's table says what its README claims (at least 24 house rules
and two published designs, at least 90% direct, none impossible)."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app

PROBES = ["probe", "probe2", "probe2/round2", "probe3", "probe4", "probe5"]
RATINGS = ("direct", "workaround", "impossible")


@pytest.mark.parametrize("probe", PROBES)
def test_a_probes_scenarios_pass(probe):
    result = CliRunner().invoke(app, ["test", str(ROOT / "examples" / probe)])
    assert result.exit_code == 0, result.output[-2000:]
    assert re.search(r"\b[1-9][0-9]* passed, 0 failed", result.output), result.output[-500:]


def rows(probe: str) -> list[tuple[str, str]]:
    """(rule, rating) of each row of a probe README's table."""
    found = []
    for line in (ROOT / "examples" / probe / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0].isdigit():
            found.append((cells[1], cells[2]))
    return found


def test_the_latest_probe_meets_the_issues_bar():
    table = rows("probe4")
    assert all(rating in RATINGS for _rule, rating in table), table
    published = [rule for rule, _rating in table if "(" in rule and any(
        source in rule for source in ("Netflix", "Zombie Kittens", "Recipes for Disaster"))]
    assert len(table) - len(published) >= 24 and len({rule.split("(")[1] for rule in published}) >= 2
    direct = sum(rating == "direct" for _rule, rating in table)
    assert direct >= 0.9 * len(table), (direct, len(table))
    assert not [rule for rule, rating in table if rating == "impossible"]
    # every row has its rule file and at least one scenario
    for rule, _rating in table:
        name = rule.split()[0]
        assert (ROOT / "examples" / "probe4" / f"{name}.yaml").exists(), name
        assert list((ROOT / "examples" / "probe4" / "scenarios" / name).glob("*.yaml")), name
