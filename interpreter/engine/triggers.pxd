# Cython declarations for triggers.py, read only when setup.py compiles the engine: the
# frames made at every draw and after every action, as C structs (see lang/machine.pxd).
# Attributes: exactly each class's __slots__.

cimport cython
from kittens.interpreter.lang.machine cimport Frame, Machine, context
from kittens.interpreter.engine.compiled cimport legal
from kittens.interpreter.engine.table cimport CardInst, Table, Zone

cdef class DrawnFrame(Frame):
    cdef public object ctx, code, started

    cpdef step(self, state, value)

cdef class ChecksFrame(Frame):
    cdef public object seats, seat_index, check_index

    @cython.locals(table=Table)
    cpdef step(self, state, value)

# a draw: the commonest action of a game
@cython.locals(table=Table, inst=CardInst, hand=Zone, pile=list)
cpdef draw(Machine state, seat, from_bottom)
