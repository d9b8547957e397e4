"""Names a rule file defines, and the primitives that may take the same name later.

A name a file gives (a `let`, a loop's name, a `choose:` name, a zone) always wins
over a primitive of that name: primitives are called (`answered()`) and a file's
names are not, so both stay reachable, and a primitive added to kittens after the
file was written never breaks it. The validator says so with a warning
(:data:`SHADOWS`), never an error: `format: 1` promises that (docs/format.md).
"""

from __future__ import annotations

from . import primitives as P

#: the diagnostic code of a name that hides a primitive's name (a warning)
SHADOWS = "shadows-primitive"


def shadowed_primitive(name: str) -> str | None:
    """The warning's message when ``name``, defined by a file, is also a primitive's
    name, else None."""
    if name not in P.PRIMITIVES:
        return None
    return (f"'{name}' is also the name of the primitive {name}(): here it names your own "
            f"value (a call {name}(...) still reaches the primitive); rename it to keep the "
            "two apart")
