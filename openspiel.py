"""The public name ``kittens.openspiel``: the adapter lives in ``kittens.adapters.openspiel``."""

from .adapters.openspiel import *  # noqa: F401,F403
from .adapters.openspiel import __all__  # noqa: F401
