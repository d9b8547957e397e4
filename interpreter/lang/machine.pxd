# Cython declarations for machine.py, read only when setup.py compiles the engine (the
# Python sources ignore this file). Decisions, effect contexts and frames are made many
# times a game; as C structs they are made and read far faster, and a frame's own
# methods read its attributes directly. Keep each list of attributes equal to the
# class's own __slots__ (tests/test_compiled_core.py checks it).

cdef class Decision:
    cdef public object seat, kind, options, values, info, then

cdef class Ctx:
    cdef public object table, state, me, this, vars, target, source

cdef class Frame:
    cdef public object result

cdef class ProgramFrame(Frame):
    cdef public object ops, pc, stack, ctx, loops, then, keep
