# Cython declarations for flow.py, read only when setup.py compiles the engine: the
# game's frame as a C struct (see lang/machine.pxd). Attributes: exactly its __slots__.

from kittens.interpreter.lang.machine cimport Frame

cdef class GameFrame(Frame):
    cdef public object phase, seat, plays, layout
