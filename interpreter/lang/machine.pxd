# Cython declarations for machine.py, read only when setup.py compiles the engine (the
# Python sources ignore this file). Decisions, effect contexts and frames are made many
# times a game; as C structs they are made and read far faster, and a frame's own
# methods read its attributes directly. Keep each list of attributes equal to the
# class's own __slots__ (tests/test_compiled_core.py checks it).

cimport cython

cdef class Decision:
    cdef public object seat, kind, options, values, info, then

    cpdef value_of(self, option)

cdef class Ctx:
    cdef public object table, state, me, this, vars, target, source, sight

# step is a C method: the game's loop (game.py) calls it directly; every class that
# declares a frame here declares its step too (a frame class of plain Python overrides it
# as any subclass does)
cdef class Frame:
    cdef public object result

    cpdef step(self, machine, value)

cdef class ProgramFrame(Frame):
    cdef public object ops, pc, stack, ctx, loops, then, keep

    # the effect machine's loop as a C method: its operations a tuple, its value stack a
    # list, its place a C integer
    @cython.locals(stack=list, ops=tuple, pc=Py_ssize_t, end=Py_ssize_t, count=Py_ssize_t, loop=list)
    cpdef step(self, machine, value)

# what runs the frames (the engine's State is one): its call, settle and charge are C
# methods, which frames that know their machine as one call directly
cdef class Machine:
    cdef public object game, table, explicit_chance, stack, step_budget, budget, phased

    @cython.locals(stack=list)
    cpdef call(self, Frame frame)
    cpdef settle(self, ctx, value)
    cpdef charge(self, steps, where)
    cpdef _draw_chance(self, chance)

# a decision made for the engine's frames (which cimport it): a C function
@cython.locals(made=Decision)
cpdef Decision decision(seat, kind, options, values, info)

# a context made for the engine's frames (which cimport it): a C function
@cython.locals(ctx=Ctx)
cpdef Ctx context(Machine state, me, this=*, target=*, source=*)

# a random bot's pick and every chance pick (Machine._draw_chance calls it in C)
cpdef below(rng, n)

# a shuffle's loop in C integers but for the generator's own draws (some 110 a game)
@cython.locals(size=Py_ssize_t, bits=int, low=Py_ssize_t, j=Py_ssize_t)
cpdef shuffle(rng, items)
