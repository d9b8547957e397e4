# Cython declarations for reactions.py, read only when setup.py compiles the engine: a
# reaction window as a C struct (see lang/machine.pxd). Attributes: exactly its __slots__.

cimport cython
from kittens.interpreter.lang.machine cimport Frame, Machine, context, decision
from kittens.interpreter.engine.compiled cimport legal
from kittens.interpreter.engine.table cimport CardInst, Table, Zone

cdef class WindowFrame(Frame):
    cdef public object play, ctx, chain, contexts, last, seats, position, phase, index

    @cython.locals(table=Table)
    cpdef step(self, state, value)

cdef class ChoicesFrame(Frame):
    cdef public object seat, rule, ctx, index

    cpdef step(self, state, value)

@cython.locals(inst=CardInst, table=Table, hand=Zone)
cpdef answers(Machine state, seat, target=*)
