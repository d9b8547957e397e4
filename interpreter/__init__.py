"""The interpreter, one package per stage of the data's way through it.

- ``lang``: YAML loaded safely with positions, JSON Schemas, the effect
  language (grammar, syntax, checker, the primitive table), diagnostics. It
  imports nothing else of ours.
- ``rules``: rule files composed (extends, apply, variants) and compiled into
  an immutable :class:`~kittens.interpreter.rules.model.Edition`. It never
  imports the engine.
- ``engine``: one game as a state machine over a table of cards, players and
  events. It takes only the compiled model from ``rules``.
- ``words``: the compiled rules in words: card texts, how to play, rulesheets,
  ``show`` and ``diff``. It never imports the engine.

What people run is built on these, beside them at the repository's root:
``authoring``, ``lab``, ``web``, ``lsp``, ``adapters`` and ``commands``.

``tests/test_layers.py`` keeps the imports flowing this way.
"""
