"""Rules are data: no card id from the rule files is written into engine code."""

import re

import yaml
from conftest import ROOT


def _card_ids():
    ids = set()
    for path in list((ROOT / "rulebook").glob("*.yaml")) + list((ROOT / "editions").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for record in data.get("cards", []) + data.get("combos", []):
            ids.add(record["id"] if isinstance(record, dict) else record)
        ids.update(data.get("deck", {}))
    return ids


def test_engine_code_names_no_card_id():
    ids = _card_ids()
    assert {"defuse", "exploding_kitten", "nope"} <= ids  # the scan sees the rule files
    offenders = []
    engine = [ROOT / "cli.py"] + [path for folder in ("interpreter", "commands", "authoring", "lab", "web",
                                                      "lsp", "adapters")
                                  for path in (ROOT / folder).rglob("*.py")]
    assert len(engine) > 15
    for path in engine:
        text = path.read_text(encoding="utf-8")
        for literal in re.findall(r"""["']([a-z][a-z0-9_]*)["']""", text):
            if literal in ids:
                offenders.append(f"{path.name}: '{literal}'")
    assert offenders == [], "card ids belong in rule files, not engine code: " + ", ".join(offenders)
