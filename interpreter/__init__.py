"""The rule language and (to come) the game engine.

Modules, in the order data flows through them:

- ``loader``: safe, bounded YAML loading that keeps every value's position
- ``schemas``: JSON Schema validation reported at YAML positions
- ``effects.lark``, ``parser``, ``syntax``: the effect language's grammar, its
  front door, and its position-carrying syntax tree
- ``primitives``: the table of effect primitives with declared signatures
- ``checker``: static checks of effects against that table
- ``workspace``, ``library``, ``edition``, ``setup``: compile rule files into
  ``model`` records, with cross-file checks and a setup dry run
- ``validate``: paths in, diagnostics out
- ``diagnostics``: findings with codes, positions and a caret
"""
