# Cython declarations for plays.py, read only when setup.py compiles the engine: its
# frames as C structs (see lang/machine.pxd). Attributes: exactly each class's __slots__.

from kittens.interpreter.lang.machine cimport Frame

cdef class PlayFrame(Frame):
    cdef public object seat, rule, cards, play, ctx, phase, index

cdef class ComboPickFrame(Frame):
    cdef public object seat, rule, picked, playing
