# Cython declarations for triggers.py, read only when setup.py compiles the engine: the
# frames made at every draw and after every action, as C structs (see lang/machine.pxd).
# Attributes: exactly each class's __slots__.

from kittens.interpreter.lang.machine cimport Frame

cdef class DrawnFrame(Frame):
    cdef public object ctx, code, started

cdef class ChecksFrame(Frame):
    cdef public object seats, seat_index, check_index
