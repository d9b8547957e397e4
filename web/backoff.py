"""A device cut off for flooding a table's websocket must wait before it comes back.

Cutting a flooding connection off is cheap for a flooder that reconnects at once
and floods again. So the address is noted, and its new connections are refused
(told for how long) for ``first`` seconds, twice as long after each further cut,
up to ``most``. An address that has not flooded for ``forget`` seconds after its
wait is forgotten, and starts again from ``first``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class Strikes:
    count: int
    until: float  # refused until then (the clock's time)


class Backoff:
    """The addresses refused for flooding, each until when."""

    def __init__(self, first: float = 10.0, most: float = 3600.0, forget: float = 3600.0,
                 clock=time.monotonic, size: int = 10_000) -> None:
        self.first, self.most, self.forget = first, most, forget
        self.clock, self.size = clock, size
        self.strikes: dict[str, Strikes] = {}

    def strike(self, address: str) -> float:
        """``address`` was cut off for flooding: how many seconds it is refused now."""
        now = self.clock()
        known = self._current(address, now)
        count = known.count + 1 if known is not None else 1
        wait = min(self.most, self.first * 2 ** (count - 1))
        if len(self.strikes) >= self.size and address not in self.strikes:
            self._prune(now)
        self.strikes[address] = Strikes(count, now + wait)
        return wait

    def refused(self, address: str) -> float | None:
        """Seconds ``address`` must still wait before it may connect (None: it may now)."""
        now = self.clock()
        known = self._current(address, now)
        if known is None or known.until <= now:
            return None
        return known.until - now

    def _current(self, address: str, now: float) -> Strikes | None:
        known = self.strikes.get(address)
        if known is not None and now - known.until >= self.forget:
            del self.strikes[address]
            return None
        return known

    def _prune(self, now: float) -> None:
        """Forget the addresses whose wait is over (all of them, if none is: a table of
        strikes must not grow without end)."""
        for address in [a for a, s in self.strikes.items() if s.until <= now] or list(self.strikes):
            del self.strikes[address]
