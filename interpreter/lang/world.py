"""The world effects run in, as the language sees it: two protocols and nothing more.

A primitive (primitives.py) reaches the game only through the running
context's ``table`` (:class:`Table`: zones, seats, and the moves that keep
knowledge honest) and ``state`` (:class:`Services`: the rules' values, the
edition's cards, asking and drawing). The engine's ``Table`` and ``State``
provide them (a test checks that they do); the validator's dry run provides
the little a setup count needs. Nothing here is implemented: this file is the
contract between the language and whatever runs it.
"""

from __future__ import annotations

from typing import Protocol


class Table(Protocol):
    """Cards, zones and seats of one game, and every change to them."""

    players: int
    everyone: int  # the bit mask of every seat
    draw_pile: object
    discard_pile: object
    removed: object
    hands: list  # a zone per seat
    extra: dict  # shared zone name -> zone
    areas: dict  # per-player zone name -> a zone per seat
    alive: list
    owed: list
    teams: int
    counters: dict  # per-player counter name -> a value per seat
    ending: bool  # the game is decided: its game_end triggers are running
    current: int  # whose turn it is (or who plays next, once a turn has passed on)
    turn: int  # the number of the turn under way
    round: int  # the number of the round under way (round_number)
    turn_seat: int  # whose turn began last (turn_player)
    turn_plays: list  # (seat, card) of each card played this turn, in order
    last_turn_plays: list  # the same for the turn before the one under way
    gone_out: list  # the seats that are out, in the order they went out
    last_play: list  # the cards of the game's last play
    watch: frozenset  # the (moment, zone) pairs the edition watches
    moments: list  # the moments queued for their triggers

    def seats_from(self, seat: int) -> list: ...
    def next_seat(self, seat: int) -> int: ...
    def areas_of(self, seat: int) -> list: ...
    def team_of(self, seat: int) -> int: ...
    def team(self, seat: int) -> tuple: ...
    def move(self, cards: list, to, at: int = 0, face_up: bool = False, in_sight=None) -> None: ...
    def shuffle(self, zone, order=None) -> None: ...
    def show(self, cards: list, seats: int, secret: bool = False) -> None: ...
    def reveal(self, cards: list) -> None: ...
    def rearrange(self, cards: list, knowers: int) -> None: ...
    def end_turn(self, seat: int, turns: int) -> None: ...
    def attack(self, attacker: int, victim: int, turns: int, stack: bool, answering: bool = False) -> None: ...
    # turns and history (extra_turns, turn_number, whose_turn, last_played, played_this_turn)
    def give_turns(self, seat: int, turns: int) -> None: ...
    def pass_over(self, seat: int, turns: int) -> None: ...
    def reverse(self) -> None: ...
    def eliminate(self, seat: int) -> None: ...
    def revive(self, seat: int) -> None: ...
    def set_counter(self, name: str, seat: int, value: int) -> None: ...
    def finish(self, winner, reason: str, winners=None) -> None: ...


class Services(Protocol):
    """What the game offers running effects besides the table."""

    table: Table
    rules: dict  # rule and parameter name -> value
    cards: dict  # card id -> its definition
    titles: list  # the card titles a player may name
    has_wilds: bool
    spending_limits: tuple  # tests of the restrictions on what `playable_as` finds (me, this)
    taking_limits: tuple  # tests of the restrictions on what leaves another's hand (me, this)
    has_decoys: bool
    has_marked: bool
    explicit_chance: bool
    budget: int  # steps the running action may still take

    def about(self, ctx) -> dict: ...  # what a decision asked inside an effect is about
    def where(self, ctx) -> str | None: ...  # the running card, combo or check, for errors
    def draw(self, seat: int, from_bottom: bool): ...  # None, or a frame to run
    def play_as(self, ctx, title: str, cards): ...  # None, or a frame running a title's effect
    def going_out(self, seat: int): ...  # None once the player is out, or a frame meeting the moment first
    def spending(self, ctx, seat: int, title: str, cards: list): ...  # whether spent cards stand, or a frame answering them first
    def charge(self, steps: int, where: str | None) -> None: ...
    def call(self, frame): ...  # run a frame now (machine.py)
    def settle(self, ctx, value): ...  # chance drawn at once unless resolved by hand


def missing(obj, protocol) -> list[str]:
    """The names of ``protocol`` that ``obj`` lacks."""
    names = set(getattr(protocol, "__annotations__", {})) | {
        name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    return sorted(name for name in names if not hasattr(obj, name))
