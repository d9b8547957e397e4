# Cython declarations for machine.py, read only when setup.py compiles the engine (the
# Python sources ignore this file). A decision and an effect's context are made many
# times a game; as C structs they are made and read about a tenth faster in all.
# Keep each list of attributes equal to the class's __slots__ (tests/test_compiled_core.py).

cdef class Decision:
    cdef public object seat, kind, options, values, info, then

cdef class Ctx:
    cdef public object table, state, me, this, vars, target, source
