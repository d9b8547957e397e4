# Cython declarations for events.py, read only when setup.py compiles the engine: the
# event log and the shapes of its rows as C structs, the row recorders as C methods
# (Table.move records about 130 moves a game), and the helpers they call as C
# functions. The log writer has its own (logwriter.pxd), which reads these.
# Attributes: exactly each class's __slots__ (tests/test_compiled_core.py).

cimport cython

cdef class EventLog:
    cdef public object record, rows, everyone, _dicts, _dicts_of
    cdef public dict _secrets

    @cython.locals(by_place=dict)
    cpdef move(self, card, source, was_at, to, at, face_up, from_face_up, card_seers, place_seers,
               face_up_places=*)
    cpdef decision(self, seat, kind, option)
    cpdef turn(self, seat, owed, number)
    cpdef end_turn(self, seat, owed)
    cpdef play(self, seat, what, rule_id, cards)
    cpdef window(self, seat, rule_id)
    cpdef window_closed(self, seat, rule_id, answers)
    cpdef answer(self, seat, card, depth)
    cpdef chose(self, seat, name, value)
    cpdef shuffled(self, zone, count, face_up_places)
    cpdef reveal(self, cards, zones, at)
    cpdef attacked(self, seat, victim, owed)
    cpdef seat_out(self, seat)
    cpdef play_cancelled(self, seat, what, rule_id)
    cpdef game_over(self, winner, reason, winners=*)

cdef class Secret(dict):
    cdef public object written, key

cdef class Shape:
    cdef public object type, fields
    cdef public tuple heads, texts
    cdef public bytes optional, kept
    cdef public str tail

# the module's own tables, looked up as dicts (not through a method of an unknown object)
cdef dict _SEATS, _MOVE_SECRETS, _SHOW_SECRETS

cpdef seats(mask)
cpdef _move_secret(card, at, everyone, dict known)
cpdef dict _move_secrets_of(everyone)
cdef tuple _ONE_SEAT
cdef Py_ssize_t _ONE_SEAT_KEPT
