"""kittens: a rules-as-data engine for Exploding Kittens and its editions.

Rules live in YAML (``rulebook/`` for cards and combos, ``editions/`` for
editions), are checked against the JSON Schemas in ``schema/``, and card
behaviour is written in a small effect language compiled once at load.

Data flow: YAML -> :mod:`kittens.interpreter.loader` (safe, positions kept)
-> :mod:`~kittens.interpreter.schemas` -> :mod:`~kittens.interpreter.library`
and :mod:`~kittens.interpreter.edition` (effects parsed and checked) -> a
compiled :class:`~kittens.interpreter.model.Edition`.
"""

from pathlib import Path

__version__ = "0.1.0"

#: where the shipped rule files live, in a checkout and in an installed package
PACKAGE_DIR = Path(__file__).resolve().parent
EDITIONS_DIR = PACKAGE_DIR / "editions"
RULEBOOK_DIR = PACKAGE_DIR / "rulebook"
SCHEMA_DIR = PACKAGE_DIR / "schema"
