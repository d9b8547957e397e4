# Cython declarations for game.py, read only when setup.py compiles the engine: the
# state as a C struct for the attributes its own methods read at every step; the rest
# stay in its __dict__ (subclasses, such as the lab's, add their own there). Keep the
# list to attributes State sets on itself (tests/test_compiled_core.py checks it).

cimport cython
from kittens.interpreter.engine.table cimport Table
from kittens.interpreter.lang.machine cimport Decision, Frame, Machine

# the stack, the table and the budget are the machine's (lang/machine.pxd)
cdef class State(Machine):
    cdef dict __dict__
    cdef public object _pending, _sampled, decisions, history

    # a decision or chance outcome taken: the table, its log and the decision C structs
    @cython.locals(table=Table, decision=Decision)
    cpdef apply_action(self, option)

    # an option taken by its place (play_game)
    @cython.locals(table=Table, decision=Decision)
    cpdef _take(self, Py_ssize_t index)

    # the game's loop: each frame's step called as a C method
    @cython.locals(stack=list, frame=Frame)
    cpdef _advance(self, value)
