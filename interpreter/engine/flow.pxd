# Cython declarations for flow.py, read only when setup.py compiles the engine: the
# game's frame as a C struct (see lang/machine.pxd). Attributes: exactly its __slots__.

cimport cython
from kittens.interpreter.lang.machine cimport Frame, Machine, context, decision
from kittens.interpreter.engine.table cimport CardInst, Table, Zone
# a rule's test, called as a C function (the module imports it too, for Python)
from kittens.interpreter.engine.compiled cimport legal

cdef class GameFrame(Frame):
    cdef public object phase, seat, plays, layout

    # a C method, so that its table is a C struct (turn_ended, start_turn and the rest
    # read directly); a Python call of frame.step still finds it
    @cython.locals(table=Table, machine=Machine)
    cpdef step(self, state, value)

# the action decision, asked some forty times a game: the table, the hand and its cards
# read as C structs
@cython.locals(table=Table, inst=CardInst, options=list, values=list, by_title=dict, found=list,
               insts=list, pairs=list, memo=dict, group=list, offers=dict, same_title_combos=tuple)
cpdef action_decision(Machine state, seat)

# an action carried out: the state's call a C method
cpdef act(Machine state, seat, choice)
