"""The public name ``kittens.env``: the adapter lives in ``kittens.adapters.pettingzoo``."""

from .adapters.pettingzoo import *  # noqa: F401,F403
from .adapters.pettingzoo import __all__  # noqa: F401
