"""What one connection is sent: its seat's view of the table, its log, its prompt.

Every function here reads the game only through what the viewer may know: a
seat's :class:`~kittens.interpreter.engine.views.View`, or for a spectator the
public zones and face-up cards; events only as ``for_seat`` passes them. Cards
are sent by id; the page looks their titles and texts up in the card list
every connection gets once (:func:`card_list`), which holds the whole edition
and so says nothing about any game.
"""

from __future__ import annotations

from ..interpreter.engine.endings import no_winner
from ..interpreter.engine.events import AFTER_THE_DEAL, as_dict, for_seat
from ..interpreter.engine.table import PUBLIC
from ..interpreter.engine.views import View, counters_seen
from ..interpreter.words.card_face import card_svg
from .words import Words, played_moves

#: a spectator "seat" sees only what no secret is kept from
SPECTATOR = None
#: the seat number events are filtered with for a spectator: no secret mask holds it
NOBODY = 64


def card_list(edition) -> dict:
    """Every card and combo of the edition: id -> title and text, and a card's face (SVG,
    drawn from its data by card_face, as `kittens print` draws it)."""
    cards = {card_id: {"title": card.title, "text": card.text, "face": card_svg(edition, card)}
             for card_id, card in edition.cards.items()}
    combos = {combo.id: {"title": combo.title, "text": combo.text, "combo": True} for combo in edition.combos}
    return {**combos, **cards}


def table_view(state, seat) -> dict:
    """The table as ``seat`` sees it (``SPECTATOR``: what everyone sees)."""
    table = state.table
    view = View(state, seat) if seat is not SPECTATOR else None
    counters = counters_seen(table, seat)
    seats = []
    for other in range(table.players):
        entry = {"seat": other, "alive": table.alive[other], "owed": table.owed[other],
                 "count": len(table.hands[other].cards)}
        if table.counters:  # per-player numbers (scores, tokens, marks); a hidden one's only if seen
            entry["counters"] = {name: values[other] for name, values in counters.items()
                                 if values[other] is not None}
        if other != seat:
            entry["known"] = view.known_in_hand(other) if view is not None else \
                sorted(inst.id for inst in table.hands[other].cards if inst.face_up)
        seats.append(entry)
    if view is not None:
        known = view.draw_pile_known()
    else:
        known = {i: inst.id for i, inst in enumerate(table.draw_pile.cards) if inst.face_up}
    # a turn that has ended but whose end is still under way (a seat discarding down to a
    # hand limit at turn_end) is still that seat's turn: play has passed on only once the
    # next turn begins, so the header does not show the next turn too early
    ending = bool(table.turn_ended) and not table.finished and table.turn_seat != table.current
    whose = table.turn_seat if ending else table.current
    out = {
        # the order of play (public): the seats still in, from the one whose turn it is
        "turn": {"seat": whose, "number": table.turn, "direction": table.direction, "ending": ending,
                 "order": list(table.seats_from(table.current)) if not table.finished else []},
        "seats": seats,
        "hand": view.hand if view is not None else None,
        "draw_pile": {"count": len(table.draw_pile.cards),
                      "known": [{"place": place, "card": card} for place, card in sorted(known.items())]},
        "discard_pile": [inst.id for inst in table.discard_pile.cards],
        "removed": [inst.id for inst in table.removed.cards],
        "zones": [_zone(name, zone, view) for name, zone in table.extra.items()],
        "areas": [dict(_zone(name, zone, view), seat=owner) for name, zones in table.areas.items()
                  for owner, zone in enumerate(zones) if zone.cards],
        "finished": table.finished,
        "winners": list(table.winners),
    }
    teams = teams_seen(table, seat)
    if teams is not None:  # each seat's team as this seat knows it (of secret teams, its own only)
        out["teams"] = teams
    if table.finished and not table.winners:  # why nobody won: a limit stopped the game, or the rules
        out["no_winner"] = no_winner(table.end_reason)
    if table.finished and state.game.phases.scoring:  # the final scores, once the game is over
        out["scores"] = state.scores()
    return out


def teams_seen(table, seat) -> list | None:
    """Each seat's team (0, 1, ...) as ``seat`` knows it, None for none: teams made in turn
    or at random are public; of secret teams a seat knows its own, a spectator none."""
    if not table.teams:
        return None
    if table.secret_teams:
        return [team if other == seat else None for other, team in enumerate(table.team_list)]
    return list(table.team_list)


def _zone(name: str, zone, view) -> dict:
    label = name.replace("_", " ")
    if view is not None:
        shown = view.zone(name) if zone.owner is None else view.zone(name, zone.owner)
    elif zone.kind == PUBLIC:
        shown = {"cards": [inst.id for inst in zone.cards]}
    else:
        shown = {"count": len(zone.cards),
                 "known": {i: inst.id for i, inst in enumerate(zone.cards) if inst.face_up}}
    if "cards" in shown:
        return {"name": label, "cards": shown["cards"]}
    return {"name": label, "count": shown["count"],
            "known": [{"place": p, "card": c} for p, c in sorted(shown["known"].items())]}


def log_entries(words: Words, events: list, start: int, stop: int, viewer) -> list[dict]:
    """The lines ``viewer`` reads for events ``start`` to ``stop``, each with its event's
    index. The deal is summed up in one line, not told card by card."""
    bit_viewer = NOBODY if viewer is SPECTATOR else viewer
    seen = [for_seat(event, bit_viewer) for event in events[start:stop]]
    entries = []
    if start == 0:
        first_turn = next((i for i, e in enumerate(seen) if e is not None and e["type"] in AFTER_THE_DEAL), len(seen))
        entries.append({"n": 0, "text": "The cards are dealt."})
        skip = first_turn
    else:
        skip = 0
    for offset, event in enumerate(seen):
        if offset < skip or event is None:
            continue
        if event["type"] == "move" and event["to"] == "discard_pile" and played_moves(seen, offset):
            continue
        discarding = _discard_from_hand(event)
        if discarding is not None and entries and entries[-1].get("discards", (None,))[0] == discarding[0]:
            entries[-1]["discards"][1].append(discarding[1])  # a hand thrown away: one line
            entries[-1]["text"] = words.discards(*entries[-1]["discards"], viewer)
            continue
        if _given(seen, offset):
            event = dict(event, given=True)
        text = words.event(event, viewer)
        if text:
            entries.append({"n": start + offset, "text": text})
            if discarding is not None:
                entries[-1]["discards"] = (discarding[0], [discarding[1]])
    for entry in entries:
        entry.pop("discards", None)
    return entries


def arrivals(events: list, start: int, stop: int, viewer) -> list:
    """Where each card that came into the viewer's hand between events ``start`` and
    ``stop`` came from, in order: the seat whose hand it left (a steal, a Favor), or None
    (the draw pile, anywhere else). The page flies each new card in from there."""
    if viewer is SPECTATOR:
        return []
    mine = f"hand {viewer}"
    found = []
    for event in events[start:stop]:
        if event.get("type") == "move" and event.get("to") == mine:
            source = event.get("from", "")
            seat = source[len("hand "):] if source.startswith("hand ") else ""
            found.append(int(seat) if seat.isdigit() else None)
    return found


def _given(seen: list, offset: int) -> bool:
    """Whether the move at ``offset`` takes a card from one hand to another just after the
    source hand's own player chose it (a gift: a Favor's card), as the viewer knows:
    only the chooser sees their choice, so only the giver reads the move as a gift."""
    event = seen[offset]
    if event["type"] != "move" or not event["from"].startswith("hand ") or not event["to"].startswith("hand "):
        return False
    before = next((e for e in reversed(seen[:offset]) if e is not None), None)
    return before is not None and before["type"] == "decision" and before.get("kind") == "choose_card" \
        and f"hand {before['seat']}" == event["from"]


def _discard_from_hand(event: dict):
    """(seat, card) of a card discarded from a hand where the viewer sees it, else None."""
    if event["type"] != "move" or event["to"] != "discard_pile" or not event["from"].startswith("hand ") \
            or "card" not in event:
        return None
    return int(event["from"].split()[1]), event["card"]


def decision_prompt(words: Words, decision, prompt_id: str, state) -> dict:
    """A decision of the engine as a prompt with buttons."""
    counts = {seat: len(hand.cards) for seat, hand in enumerate(state.table.hands)}
    options = [words.option(decision, option, counts) for option in decision.options]
    question = words.question(decision, decision.seat, counts, announced(state.events, decision.info.get("actor")))
    prompt = {"id": prompt_id, "kind": decision.kind, "question": question,
              "options": options}
    if decision.kind == "rearrange":
        prompt["cards"] = list(decision.info.get("cards", []))
    return prompt


def announced(events: list, actor) -> list:
    """The choices ``actor``'s play under way announced to everyone (a claim's title, a
    target), as (name, value): what a question asked of another seat may name."""
    found = []
    for row in reversed(events[-60:]):
        event = as_dict(row)
        if event["type"] == "turn" or (event["type"] == "play" and event.get("seat") == actor):
            break
        value = event.get("value")
        if event["type"] == "chose" and event.get("seat") == actor and "only" not in event \
                and type(value) in (str, int):
            found.append((event["name"], value))
    return found[::-1]


def round_prompt(words: Words, event: dict, prompt_id: str, seat, options: list) -> dict:
    """The prompt of a reaction window: the same question for every person, Pass for
    all, and the answers this seat holds (none for most)."""
    buttons = [words.option(_ANSWER, option, {}) for option in options]
    return {"id": prompt_id, "kind": "window", "question": words.round_question(event, seat),
            "options": buttons}


class _Answer:
    kind = "answer"
    options: list = []
    info: dict = {}


_ANSWER = _Answer()


# -- the table as it was in the middle of an action -------------------------------
class _Stop(BaseException):
    """Raised by a tripped event list: the copy has reached the event asked for."""


class _TripList(list):
    """An event list that stops the game once it holds ``limit`` events."""

    limit = 0

    def append(self, item) -> None:  # noqa: D401
        list.append(self, item)
        if len(self) >= self.limit:
            raise _Stop


def frozen_at(before, option, count: int):
    """A copy of the game as it stood when its ``count``-th event was written, partway
    through applying ``option`` to ``before`` (the state just before that action).

    A reaction window the engine closed at once (nobody held an answer) must still
    be shown to everyone, on the clock, before anything after it: the table is
    shown as it was when the window opened. The copy's frames are left partway
    through: only its table is to be read (``table_view``)."""
    copy = before.clone()
    log = copy.table.log
    if len(log.events) >= count:
        return copy
    events = _TripList(log.events)
    events.limit = count
    log.events = events
    try:
        copy.apply_action(option)
    except _Stop:
        pass
    log.events = list(events)
    return copy
