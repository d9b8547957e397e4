"""kittens: a rules-as-data engine for Exploding Kittens and its editions.

Rules live in YAML (``rulebook/`` for cards and combos, ``editions/`` for
editions), are checked against the JSON Schemas in ``schema/``, and card
behaviour is written in a small effect language compiled once at load. The
core follows the data, one package per stage (see ``interpreter/``): ``lang``
(YAML, schemas, the effect language), ``rules`` (files composed and compiled
into an edition), ``engine`` (a game as a state machine, players, events) and
``words`` (the compiled rules in words). The products stand beside it:
``authoring``, ``lab``, ``web``, ``lsp`` and ``adapters``, with the command
line in ``cli.py`` and ``commands/`` (docs/engine.md has the map).

The names most programs need are importable from here::

    from kittens import Game, load_edition, play_game, RandomBot

    edition = load_edition("original")
    state = Game(edition, players=4).new_state(seed=7)
"""

from importlib import import_module

# absolute, not relative: pytest, walking a checkout whose folder name is not a
# module name, imports this file as a plain module
from kittens.about import EDITIONS_DIR, PACKAGE_DIR, RULEBOOK_DIR, SCHEMA_DIR, __version__

#: public name -> the module that defines it; imported on first use, so that
#: `kittens validate` never pays for the engine
_API = {
    "load_edition": "kittens.interpreter.rules.load",
    "RuleError": "kittens.interpreter.rules.load",
    "Edition": "kittens.interpreter.rules.model",
    "Game": "kittens.interpreter.engine.game",
    "State": "kittens.interpreter.engine.game",
    "GameError": "kittens.interpreter.engine.game",
    "RuleRuntimeError": "kittens.interpreter.engine.game",
    "CHANCE": "kittens.interpreter.engine.decisions",
    "TERMINAL": "kittens.interpreter.engine.decisions",
    "Decision": "kittens.interpreter.engine.decisions",
    "Chance": "kittens.interpreter.engine.decisions",
    "View": "kittens.interpreter.engine.views",
    "RandomBot": "kittens.interpreter.engine.bots",
    "HeuristicBot": "kittens.interpreter.engine.bots",
    "make_bots": "kittens.interpreter.engine.players",
    "make_players": "kittens.interpreter.engine.players",
    "ISMCTSBot": "kittens.interpreter.engine.search",
    "SearchView": "kittens.interpreter.engine.views",
    "play_game": "kittens.interpreter.engine.simulate",
    "run_games": "kittens.interpreter.engine.simulate",
    "validate_paths": "kittens.interpreter.rules.check",
    "replay_log": "kittens.adapters.replay",
}

__all__ = sorted(_API) + ["__version__", "PACKAGE_DIR", "EDITIONS_DIR", "RULEBOOK_DIR", "SCHEMA_DIR"]


def __getattr__(name: str):
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'kittens' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
