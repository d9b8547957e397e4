# Cython declarations for compiled.py, read only when setup.py compiles the engine: a
# play on its way as a C struct, and the test of a rule as a C function whose context
# is one (it sets `this` at every test). Attributes: exactly the class's __slots__.

from kittens.interpreter.lang.machine cimport Ctx

cdef class Play:
    cdef public object seat, rule, cards, cancelled

cpdef bint legal(rule, Ctx ctx, this, dict memo=*)
