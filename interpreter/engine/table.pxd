# Cython declarations for table.py, read only when setup.py compiles the engine (the
# Python sources ignore this file). Cards, zones and the table become C structs, and
# Table.move, which runs about seventy times a game, reads its cards and zones as such
# and records its moves through the log's C method.
# Keep each list of attributes equal to the class's __slots__, and Table's to attributes
# it sets (tests/test_compiled_core.py); the rest of a table's attributes live
# in its __dict__ as before.

cimport cython
from kittens.interpreter.engine.events cimport EventLog

# A generator's state copied as its 624 words and index (a copy of a game copies it):
# getstate() and setstate() make and read 625 Python integers, a third of a compiled
# clone. The C layout is CPython's _random.Random (Modules/_randommodule.c, unchanged
# since 3.2); the copy checks its base type's name and size first and reports 0, so the
# caller falls back on setstate, when they are not as expected.
cdef extern from *:
    """
    #include <string.h>
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } kittens_mt_layout;
    static CYTHON_INLINE int kittens_mt_copy_into(PyObject *source, PyObject *target) {
        PyTypeObject *base = Py_TYPE(source)->tp_base;
        if (Py_TYPE(target) != Py_TYPE(source) || base == NULL
                || base->tp_basicsize != (Py_ssize_t)sizeof(kittens_mt_layout)
                || strcmp(base->tp_name, "_random.Random") != 0)
            return 0;
        ((kittens_mt_layout *)target)->index = ((kittens_mt_layout *)source)->index;
        memcpy(((kittens_mt_layout *)target)->state, ((kittens_mt_layout *)source)->state,
               sizeof(((kittens_mt_layout *)source)->state));
        return 1;
    }
    """
    bint mt_copy_into "kittens_mt_copy_into"(object source, object target)

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

    @cython.locals(inst=CardInst, made=list)
    cpdef fill(self, list cards, Zone zone)
    # a shuffle's knowledge reset, card by card in C (the deck twice a game, and Shuffle cards)
    @cython.locals(inst=CardInst)
    cpdef shuffle(self, Zone zone, order=*)
    cpdef seats_from(self, seat)
    cpdef next_seat(self, seat)
    cpdef start_turn(self, seat)
    cpdef end_turn(self, seat, turns)
    @cython.locals(inst=CardInst)
    cpdef played(self, seat, list cards)

    @cython.locals(inst=CardInst, source=Zone, other=CardInst, held=list, into=list, place=Py_ssize_t)
    cpdef move(self, cards, Zone to, at=*, face_up=*, in_sight=*)

    # move's paths for one card drawn into a hand, one card played to a public zone
    @cython.locals(held=list, into=list)
    cpdef _drawn(self, CardInst inst, Zone source, Zone to, at)
    @cython.locals(held=list, into=list)
    cpdef _shown(self, CardInst inst, Zone source, Zone to, at)

    @cython.locals(other=CardInst)
    cpdef _seen_leaving(self, CardInst inst, Zone source, shown, walk=*)
    @cython.locals(other=CardInst, held=list)
    cpdef _left_hand(self, CardInst inst, Zone source, shown, sighted)

@cython.locals(other=CardInst)
cpdef _lose_copies(list held, card_id, unsure)

@cython.locals(inst=CardInst, taking=dict)
cpdef list _emptied_hands(cards)

@cython.locals(twin=Zone, inst=CardInst, copy=CardInst, made=list)
cpdef Zone _copy_zone(Zone original, dict memo)
