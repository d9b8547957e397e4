# Cython declarations for table.py, read only when setup.py compiles the engine (the
# Python sources ignore this file). Cards, zones and the table become C structs, and
# Table.move, which runs about seventy times a game, reads its cards and zones as such
# and records its moves through the log's C method.
# Keep each list of attributes equal to the class's __slots__, and Table's to attributes
# it sets (tests/test_compiled_core.py); the rest of a table's attributes live
# in its __dict__ as before.

cimport cython
from kittens.interpreter.engine.events cimport EventLog

cdef class CardInst:
    cdef public object uid, card, id, zone, known, face_up, was_face_up, played_by

cdef class Zone:
    cdef public object name, kind, owner, cards, reactive

@cython.locals(inst=CardInst, place=Py_ssize_t)
cpdef dict face_up_places(list cards)

cdef class Table:
    cdef dict __dict__
    cdef public EventLog log
    cdef public object everyone, _reactive, _marked, _homes, discard_pile, extra, hands, owed
    cdef public object turn_ended, current, alive, draw_pile, watch
    # read on every turn and every choice of a seat (seats_from, next_seat, start_turn)
    cdef public object players, direction, _orders, turn, attacked, cards, finished

    cpdef seats_from(self, seat)
    cpdef next_seat(self, seat)
    cpdef start_turn(self, seat)
    cpdef end_turn(self, seat, turns)

    @cython.locals(inst=CardInst, source=Zone, other=CardInst, held=list, into=list, place=Py_ssize_t)
    cpdef move(self, cards, Zone to, at=*, face_up=*)

    @cython.locals(other=CardInst)
    cpdef _seen_leaving(self, CardInst inst, Zone source, shown)

@cython.locals(other=CardInst)
cpdef _lose_copies(list held, card_id, unsure)

@cython.locals(twin=Zone, inst=CardInst, copy=CardInst, made=list)
cpdef Zone _copy_zone(Zone original, dict memo)
