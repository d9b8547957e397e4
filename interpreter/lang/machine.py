"""How effects run: requests for decisions and chance, frames, and the effect machine.

A running game is a stack of :class:`Frame` objects, each plain data: the
game's turn loop, a play waiting for answers, an effect halfway through. A
frame's :meth:`Frame.step` runs until it must wait and then returns what it
waits for: a :class:`Decision` (a seat must pick one of the listed options) or
a :class:`Chance` (an outcome nobody chooses), whose answer comes back as the
``value`` of the next step; or ``None`` when it is done, its result in
``frame.result``. A request may carry ``then``, a function and its arguments
that turn the answer into the value the effect goes on with. A frame starts
another with the machine's ``call``, which runs it at once and leaves it on
the stack only if it has to wait; chance nobody resolves by hand is drawn on
the spot.

Because no frame holds a Python generator, a game copies in microseconds
(:func:`remap` carries every value over to the copied table), and it can be
stopped and resumed anywhere.

:class:`ProgramFrame` runs the part of an effect that may wait: the compiler
(compiler.py) turns such code into a short list of operations; code that
never waits runs as plain closures, with no frame at all.
"""

from __future__ import annotations

import random

from .limits import over_budget


class Decision:
    """One seat must pick one of ``options`` (JSON values); ``values`` says what each means
    to the rules, ``info`` what the decision is about, ``then`` what to make of the answer."""

    __slots__ = ("seat", "kind", "options", "values", "info", "then")

    def __init__(self, seat: int, kind: str, options: list, values: list | None = None,
                 info: dict | None = None, then: tuple | None = None) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.values = options if values is None else values
        self.info = info or {}
        self.then = then

    def value_of(self, option):
        """The rules' meaning of ``option``; ValueError when it is not legal."""
        try:
            index = self.options.index(option)
        except ValueError:
            raise ValueError(f"{option!r} is not a legal option here; the options are "
                             f"{', '.join(map(repr, self.options))}") from None
        if type(option) is not type(self.options[index]):  # True is not 1, 1 is not True
            raise ValueError(f"{option!r} is not a legal option here; the options are "
                             f"{', '.join(map(repr, self.options))}")
        return self.values[index]

    def to_dict(self) -> dict:
        return {"seat": self.seat, "kind": self.kind, "options": list(self.options), **self.info}

    def copy_for(self, memo: dict) -> "Decision":
        return Decision(self.seat, self.kind, self.options,
                        remap(self.values, memo) if self.values is not self.options else None,
                        self.info, remap(self.then, memo))

    def __repr__(self) -> str:
        return f"<decision seat {self.seat} {self.kind}: {self.options}>"


def decision(seat: int, kind: str, options: list, values: list, info: dict) -> Decision:
    """``Decision(seat, kind, options, values, info)`` with its values and info given, made
    without its __init__: compiled, a C function that fills the C struct (the engine makes
    one for every action and every answer it asks for)."""
    made = Decision.__new__(Decision)
    made.seat, made.kind, made.options, made.values, made.info, made.then = seat, kind, options, values, info, None
    return made


#: the generator class, named once (compiled, ``random.Random`` is a module attribute
#: looked up at every draw of a random bot)
_RANDOM = random.Random


def shuffle(rng, items: list) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle`` does (the same order from
    the same generator), in a quarter of the time: Python's shuffle calls a method for
    every card, and a game shuffles its deck at least twice. A generator of another
    kind (a subclass, SystemRandom) shuffles itself."""
    if type(rng) is not _RANDOM:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    size = len(items)
    bits = 0  # the bit length of size, kept as size goes down (compiled, all C integers)
    while size >> bits:
        bits += 1
    low = (1 << bits) >> 1  # the smallest size of that bit length
    while size > 1:  # Fisher-Yates, as random.shuffle draws it: a place below each size
        if size < low:
            bits -= 1
            low >>= 1
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        size -= 1
        items[size], items[j] = items[j], items[size]


def below(rng, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: the same number from the same generator, as
    Python's own ``_randbelow`` draws it, without the argument checks and the two method
    calls in between (a random bot asks for one at every decision). A generator of
    another kind draws its own, and ``n <= 0`` fails as randrange fails."""
    if n <= 0 or type(rng) is not _RANDOM:
        return rng.randrange(n)
    bits = n.bit_length()
    r = rng.getrandbits(bits)  # (called as a method: no bound method is made)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


class Chance:
    """A random outcome: ``pick`` one of ``size`` things, or an ``order`` of ``size`` cards."""

    __slots__ = ("kind", "size", "info", "then")

    def __init__(self, kind: str, size: int, info: dict | None = None, then: tuple | None = None) -> None:
        self.kind = kind
        self.size = size
        self.info = info or {}
        self.then = then

    def outcomes(self) -> list | None:
        """Every outcome of a pick; None for an order (too many to list)."""
        return list(range(self.size)) if self.kind == "pick" else None

    def sample(self, rng):
        if self.kind == "pick":
            return rng.randrange(self.size)
        order = list(range(self.size))
        shuffle(rng, order)
        return order

    def check(self, outcome) -> None:
        if self.kind == "pick":
            if not isinstance(outcome, int) or isinstance(outcome, bool) or \
                    not 0 <= outcome < self.size:
                raise ValueError(f"a pick among {self.size} needs a number from 0 to {self.size - 1}")
        elif not isinstance(outcome, (list, tuple)) or sorted(outcome) != list(range(self.size)):
            raise ValueError(f"an order of {self.size} cards is a permutation of 0..{self.size - 1}")

    def copy_for(self, memo: dict) -> "Chance":
        return Chance(self.kind, self.size, self.info, remap(self.then, memo))

    def __repr__(self) -> str:
        return f"<chance {self.kind} {self.size}>"


REQUESTS = (Decision, Chance)


class Frame:
    """One suspended piece of a game; see the module's docstring."""

    __slots__ = ("result",)
    #: slots that hold compiled code or rules, never the game's objects: shared by a copy
    SHARED: frozenset[str] = frozenset()
    result: object  # what the frame came to, once done

    def step(self, machine, value):  # pragma: no cover - every frame defines it
        raise NotImplementedError

    def copy_for(self, memo: dict) -> "Frame":
        """This frame for a copied game: every slot carried over by :func:`remap`."""
        kind = type(self)
        other = kind.__new__(kind)  # (not object.__new__: a compiled frame is a C struct)
        memo[id(self)] = other
        shared = kind.SHARED
        names = _SLOT_NAMES.get(kind)
        if names is None:  # every slot of the class and its bases, found once per class
            names = _SLOT_NAMES[kind] = tuple(name for cls in kind.__mro__ for name in getattr(cls, "__slots__", ()))
        for name in names:
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:  # (a slot never set stays unset)
                object.__setattr__(other, name, value if name in shared else remap(value, memo))
        return other


#: frame class -> the names of its slots and its bases' (see Frame.copy_for)
_SLOT_NAMES: dict = {}


class Machine:
    """What runs a game's frames: the stack of those waiting, the table (whose generator
    draws the chance nobody resolves by hand) and the running action's step budget.
    The engine's State is one. Frames and effects run others with :meth:`call`, draw
    chance with :meth:`settle` and charge their steps with :meth:`charge`; compiled,
    these are C methods, which the engine's frames call directly."""

    def _start(self, game, table, explicit_chance: bool, step_budget: int) -> None:
        self.game = game
        self.table = table
        self.explicit_chance = explicit_chance
        self.stack: list = []
        self.step_budget = step_budget  # steps each action may take (see limits.py)
        self.budget = step_budget  # steps the running action may still take
        self.phased = False  # whether the game has moments to run after actions (the engine's flow)

    def call(self, frame: Frame):
        """Run ``frame`` now, on top of the stack: None once it is done (it is taken off
        again, its result in ``frame.result``), else the Decision (or explicit Chance)
        the game must wait for, with the frames that wait for it left on the stack
        (STOPPED when an effect ended the game: the game's loop then clears the stack)."""
        stack = self.stack
        stack.append(frame)
        value = None
        while True:
            out = frame.step(self, value)
            if out is None:
                stack.pop()
                return None
            if type(out) is Chance and not self.explicit_chance:
                value = self._draw_chance(out)
                continue
            return out

    def settle(self, ctx, value):
        """A primitive's result with its chance drawn at once, unless the caller resolves
        chance by hand (explicit chance): a value, a Decision, an explicit Chance or a frame."""
        while type(value) is Chance and not self.explicit_chance:
            then = value.then
            outcome = self._draw_chance(value)
            value = then[0](ctx, outcome, *then[1]) if then is not None else outcome
        return value

    def charge(self, steps: int, where: str | None) -> None:
        """Charge ``steps`` to the running action's budget (limits.py)."""
        self.budget -= steps
        if self.budget < 0:
            over_budget(where)

    def _draw_chance(self, chance: Chance):
        # a shuffle given no order shuffles with the same generator
        return below(self.table.rng, chance.size) if chance.kind == "pick" else None


def remap(value, memo: dict):
    """``value`` as it is in a copied game: cards, zones and the other objects of the
    table replaced by their copies (``memo``: id of an original -> its copy), lists,
    tuples and dicts rebuilt around them, everything else shared (it never changes)."""
    kind = type(value)
    if kind is int or kind is str or kind is bool or value is None:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    if kind is list:
        return [remap(item, memo) for item in value]
    if kind is tuple:  # (a list made first: a generator costs more, compiled most of all)
        return tuple([remap(item, memo) for item in value])
    if kind is dict:
        return {key: remap(item, memo) for key, item in value.items()}
    # objects of a game (frames, plays, contexts) have a copy_for; the rest are shared.
    # The class is asked once: a decision's options hold rules, which have none
    copy = _COPY_FOR.get(kind, _UNSET)
    if copy is _UNSET:
        copy = _COPY_FOR[kind] = getattr(kind, "copy_for", None)
    if copy is not None:
        made = memo[id(value)] = copy(value, memo)
        return made
    return value


#: class -> its copy_for (unbound), or None for a class whose objects a copy shares
_COPY_FOR: dict = {}
_UNSET = object()


class Ctx:
    """What a running effect sees: the table, the game's services, the acting seat,
    ``this``, its names, the play it answers (``target``) and whose effect it is.

    ``sight`` holds the cards this effect has shown (card -> the bit mask of the seats
    that saw it), until each next moves: a card shown and then handed over is seen
    going, where one shown long before leaves its hand unseen (engine/table.py)."""

    __slots__ = ("table", "state", "me", "this", "vars", "target", "source", "sight")

    def __init__(self, state, me: int, this=None, target=None, source=None) -> None:
        self.state = state
        self.table = state.table
        self.me = me
        self.this = this
        self.vars: dict = {}
        self.target = target
        self.source = source
        self.sight = None

    def copy_for(self, memo: dict) -> "Ctx":
        other = Ctx.__new__(Ctx)
        memo[id(self)] = other
        other.state = memo["state"]
        other.table = other.state.table
        other.me = self.me
        other.this = remap(self.this, memo)
        other.vars = remap(self.vars, memo)
        other.target = remap(self.target, memo)
        other.source = self.source
        other.sight = remap(self.sight, memo)
        return other


def context(state, me: int, this=None, target=None, source=None) -> Ctx:
    """``Ctx(state, me, this, target, source)``, made without its __init__: compiled, a C
    function that fills the C struct (the engine makes one for most plays and draws)."""
    ctx = Ctx.__new__(Ctx)
    ctx.state, ctx.table, ctx.me, ctx.this, ctx.vars = state, state.table, me, this, {}
    ctx.target, ctx.source, ctx.sight = target, source, None
    return ctx


class Stop(Exception):
    """Raised by a primitive (through the world's services) when every running effect
    must end at once: the engine's GameOver is one. The effect machine does not let it
    unwind further: the frame that ran the primitive returns :data:`STOPPED` instead, and
    that goes up through the frames that called it as a wait does (each returns what it
    got back), to the game's loop, which ends there. An exception unwinding a deep game
    costs far more, compiled: Cython adds a traceback entry for every function it leaves."""


#: what a frame returns once a :class:`Stop` ended the effects (instead of a decision)
STOPPED = object()


# -- the effect machine -----------------------------------------------------------
# operations of compiled code that may wait (see compiler.py), as (opcode, ...) tuples; the
# commonest first, as the machine tests them in this order
CALLF, EXEC, PURE, CALL, STORE, POP, JUMP, JUMP_FALSE, AND_JUMP, OR_JUMP, COMBINE, NOT, FOR, NEXT, \
    CHARGE = range(15)


class ProgramFrame(Frame):
    """Effect code that may wait for a decision, run operation by operation.

    ``ops`` comes from the compiler; ``stack`` holds values being worked out,
    ``loops`` the `for` loops running (items, index). ``result`` is the value an
    expression leaves (None for a program). The machine it runs on offers
    ``call(frame)`` (run a frame now, leaving it on the stack only if it must
    wait), ``settle(ctx, value)`` (chance drawn at once where nobody resolves it
    by hand) and ``charge(steps, where)``.
    """

    __slots__ = ("ops", "pc", "stack", "ctx", "loops", "then", "keep")
    SHARED = frozenset({"ops"})

    def __init__(self, ops: tuple, ctx: Ctx) -> None:
        self.ops = ops
        self.pc = 0
        self.stack: list = []
        self.ctx = ctx
        self.loops: list = []
        self.then = None  # what to make of the answer awaited
        self.keep = True  # whether the value awaited is kept (a call used as a statement: no)
        self.result = None

    def _wait(self, machine, value, pc: int, keep: bool):
        """``value`` came back from a primitive that may wait: the plain value to go on
        with, or (after noting where to resume) what the machine must wait for."""
        while True:
            value = machine.settle(self.ctx, value)
            kind = type(value)
            if kind is Decision or kind is Chance:
                self.pc, self.then, self.keep = pc, value.then, keep
                return _WAIT, value
            if not isinstance(value, Frame):
                return _GO, value
            out = machine.call(value)
            if out is not None:
                self.pc, self.then, self.keep = pc, None, keep
                return _WAIT, out
            value = value.result

    def step(self, machine, value):
        try:
            ctx, stack, ops = self.ctx, self.stack, self.ops
            if self.pc or self.then is not None or not self.keep:  # resumed: the answer awaited
                then, self.then = self.then, None
                if then is not None:
                    state, value = self._wait(machine, then[0](ctx, value, *then[1]), self.pc, self.keep)
                    if state is _WAIT:
                        return value
                if self.keep:
                    stack.append(value)
                self.keep = True
            pc, end = self.pc, len(ops)
            while pc < end:
                op = ops[pc]
                pc += 1
                code = op[0]
                if code is CALLF:  # a call whose arguments never wait: (CALLF, the call, waits, keep)
                    value = op[1](ctx)
                    if op[2] and value is not None:  # a primitive that may wait, and did not just finish
                        state, value = self._wait(machine, value, pc, op[3])
                        if state is _WAIT:
                            return value
                    if op[3]:
                        stack.append(value)
                elif code is EXEC:
                    op[1](ctx)
                elif code is PURE:
                    stack.append(op[1](ctx))
                elif code is CALL:
                    count = op[2]
                    if count:
                        args = stack[-count:]
                        del stack[-count:]
                        value = op[1](ctx, *args)
                    else:
                        value = op[1](ctx)
                    if op[3]:  # a primitive that may wait
                        state, value = self._wait(machine, value, pc, True)
                        if state is _WAIT:
                            return value
                    stack.append(value)
                elif code is STORE:
                    ctx.vars[op[1]] = stack.pop()
                elif code is POP:
                    stack.pop()
                elif code is JUMP:
                    pc = op[1]
                elif code is JUMP_FALSE:
                    if not stack.pop():
                        pc = op[1]
                elif code is AND_JUMP:  # `and`: a false operand is the answer
                    if not stack[-1]:
                        pc = op[1]
                    else:
                        stack.pop()
                elif code is OR_JUMP:  # `or`: a true operand is the answer
                    if stack[-1]:
                        pc = op[1]
                    else:
                        stack.pop()
                elif code is COMBINE:
                    count = op[2]
                    values = stack[-count:]
                    del stack[-count:]
                    stack.append(op[1](values))
                elif code is NOT:
                    stack[-1] = not stack[-1]
                elif code is FOR:
                    items = op[4](stack.pop())
                    machine.charge(op[3] * len(items), op[5])
                    if not items:
                        pc = op[2]
                    else:
                        self.loops.append([items, 0])
                        ctx.vars[op[1]] = items[0]
                elif code is NEXT:
                    loop = self.loops[-1]
                    loop[1] += 1
                    if loop[1] < len(loop[0]):
                        ctx.vars[op[2]] = loop[0][loop[1]]
                        pc = op[1]
                    else:
                        self.loops.pop()
                elif code is CHARGE:
                    machine.charge(op[1], op[2])
            self.pc = end
            self.result = stack[-1] if stack else None
            return None
        except Stop:  # the game is over: up the frames as a wait goes, not as an exception
            return STOPPED


_WAIT, _GO = object(), object()


def run(machine, code, ctx):
    """Run compiled code at once: (None, its value) when it finishes without waiting, else
    (what to wait for, None), its frame left on the machine's stack to carry on."""
    if code.ops is None:
        return None, code.fn(ctx)
    frame = ProgramFrame(code.ops, ctx)
    out = machine.call(frame)
    return (None, frame.result) if out is None else (out, None)
