# Cython declarations for plays.py, read only when setup.py compiles the engine: its
# frames as C structs (see lang/machine.pxd). Attributes: exactly each class's __slots__.

cimport cython
from kittens.interpreter.lang.machine cimport Frame, Machine, context, decision
from kittens.interpreter.engine.events cimport EventLog
from kittens.interpreter.engine.table cimport CardInst, Table

# each step a C method with its table, log and cards as C structs (table.move and the
# log's recorders are then called directly)
cdef class PlayFrame(Frame):
    cdef public object seat, rule, cards, play, ctx, phase, index

    @cython.locals(table=Table, log=EventLog, inst=CardInst, machine=Machine)
    cpdef step(self, state, value)

cdef class ComboPickFrame(Frame):
    cdef public object seat, rule, picked, playing

    @cython.locals(inst=CardInst, hand=list, options=list, values=list, seen=set)
    cpdef step(self, state, value)
