# Cython declarations for logwriter.py, read only when setup.py compiles the engine: the
# writer and its helpers as C functions, reading a row's Shape and a Secret as the C
# structs events.pxd declares (setup.py stages both .pxd files where Cython finds them
# by the package's name).

cimport cython
from kittens.interpreter.engine.events cimport Secret, Shape

# the module's own table of texts, looked up as a dict
cdef dict _TEXTS

@cython.locals(out=list)
cpdef bytes write_rows(list rows)

cpdef write_lines(list rows, list out)

@cython.locals(shape=Shape, heads=tuple, optional=bytes, kept=bytes, texts=tuple,
               known=dict, text=str, i=Py_ssize_t, last=Py_ssize_t)
cdef _write_row(tuple values, list out)

cpdef str _value_text(value)

cpdef bint _as_json_writes(bytes data)

@cython.locals(text=str, first=bint)
cpdef _write(value, list out)

cpdef _text_key(value)
