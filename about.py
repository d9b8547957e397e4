"""What kittens is and where its shipped files live: a leaf every layer may import."""

from pathlib import Path

__version__ = "0.1.0"

#: where the shipped rule files live, in a checkout and in an installed package
PACKAGE_DIR = Path(__file__).resolve().parent
EDITIONS_DIR = PACKAGE_DIR / "editions"
RULEBOOK_DIR = PACKAGE_DIR / "rulebook"
SCHEMA_DIR = PACKAGE_DIR / "schema"
