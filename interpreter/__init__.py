"""The interpreter, one package per stage of the data's way through it.

- ``lang``: YAML loaded safely with positions, JSON Schemas, the effect
  language (grammar, syntax, checker, the primitive table), diagnostics. It
  imports nothing else of ours.
- ``rules``: rule files composed (extends, apply, variants) and compiled into
  an immutable :class:`~kittens.interpreter.rules.model.Edition`. It never
  imports the engine.
- ``engine``: one game as a state machine over a table of cards, players and
  events. It takes only the compiled model from ``rules``.
- ``tools``: what people run: validation, scenarios, rulesheets, replays, docs.

``tests/test_layers.py`` keeps the imports flowing this way.
"""
