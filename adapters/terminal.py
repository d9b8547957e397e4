"""Playing in the terminal: people against bots, or several people hot-seat.

Each person sees only their seat's view: their own hand, the public piles, how
many cards the others hold, what they saw privately. With two or more people
at one screen, a cover screen hides the table between their turns, and every
person gets a prompt in every reaction window, whether or not they hold a
card to answer with, so nobody learns who was asked (ruling 6).
"""

from __future__ import annotations

from ..interpreter.engine.decisions import Chance
from ..interpreter.engine.endings import outcome
from ..interpreter.engine.events import AFTER_THE_DEAL, for_seat
from ..interpreter.engine.views import decision_for, view_for
from ..interpreter.lang.diagnostics import printable
from ..interpreter.words.answers import moment_words, printed_text, standing

RULE = "-" * 64


class Terminal:
    """Reads and writes lines; tests give their own ``read``/``write``."""

    def __init__(self, read=input, write=print) -> None:
        self.read, self._write = read, write

    def write(self, text: str) -> None:
        """Write a line, made safe for a terminal: it holds titles and texts from rule files."""
        self._write(printable(text))


class Quit(Exception):
    pass


class HumanTable:
    """Runs one game with human seats at a terminal."""

    def __init__(self, state, humans: list[int], bots: dict, terminal: Terminal) -> None:
        self.state, self.humans, self.bots, self.io = state, humans, bots, terminal
        self.edition = state.game.edition
        self.cursor = {seat: 0 for seat in humans}  # events already shown to each person
        self.hot_seat = len(humans) > 1
        self.at_screen: int | None = None if self.hot_seat else humans[0]
        self._scanned = 0  # events already looked at for reaction windows

    # -- names ----------------------------------------------------------------
    def title(self, card_id) -> str:
        """A card's or a combo's title, never its id."""
        card = self.edition.cards.get(card_id)
        if card is not None:
            return card.title
        combo = next((c for c in self.edition.combos if c.id == card_id), None)
        return combo.title if combo is not None else str(card_id).replace("_", " ")

    def card_text(self, card_id) -> str:
        """A card's title and printed text, for `?` at a prompt."""
        card = self.edition.cards.get(card_id)
        if card is None:
            combo = next((c for c in self.edition.combos if c.id == card_id), None)
            return f"{combo.title}: {printed_text(self.edition, combo)}" if combo else self.title(card_id)
        return f"{card.title}: {printed_text(self.edition, card)}"

    def option_card(self, decision, option):
        """The card (or combo) an option is about, if any."""
        if isinstance(option, str):
            parts = option.split()
            if parts and parts[0] in ("play", "combo") and len(parts) > 1:
                return parts[1]
            if option in self.edition.cards:
                return option
        return None

    def who(self, seat: int, viewer: int) -> str:
        if seat == viewer:
            return "you"
        kind = "person" if seat in self.humans else self.bots[seat].name
        return f"seat {seat} ({kind})"

    # -- the loop -------------------------------------------------------------
    def play(self) -> None:
        state = self.state
        queue: list[int] = []  # people still to be given a prompt in this reaction window
        while not state.is_terminal():
            queue = self._window_queue(queue)
            pending = state.decision()
            if type(pending) is Chance:  # a table played by people never fixes chance by hand
                state.apply_action(state.sample_chance())
                continue
            seat = pending.seat
            if seat not in self.humans:
                state.apply_action(self.bots[seat].choose(view_for(self.bots[seat], state, seat),
                                                          decision_for(pending)))
                continue
            if self.hot_seat and pending.kind == "answer":
                while queue and queue[0] != seat:  # people before them are asked first
                    self._dummy_answer(queue.pop(0))
                if queue:
                    queue.pop(0)
            self._ask(seat, pending)
        for seat in self.humans:
            self._switch_to(seat)
            self._show_events(seat)
        self.io.write(RULE)
        self.io.write(f"Game over: {outcome(state.table.end_reason, state.winners)}.")
        if state.game.phases.scoring:
            self.io.write("Scores: " + ", ".join(f"seat {seat} {score}" for seat, score in enumerate(state.scores())))

    def _window_queue(self, queue: list[int]) -> list[int]:
        """Hot-seat fairness: in each round of a reaction window every other person gets
        one prompt, in seat order after whoever played last; those the game does not ask
        (no card to answer with) get a prompt with nothing to choose, at their place."""
        if not self.hot_seat:
            return queue
        events = self.state.events
        start, self._scanned = self._scanned, len(events)
        n, alive = self.state.table.players, self.state.table.alive
        for event in events[start:]:
            if event["type"] in ("window", "answer"):  # a new round of answers begins
                # (a window on a moment asks the moment's own player too, last)
                after = [(event["seat"] + i) % n for i in range(1, n + (1 if event.get("at") else 0))]
                # players who are out are asked too where a card lets them answer
                ghosts = bool(self.state.game.out_answers)
                queue = [s for s in after if s in self.humans and (alive[s] or ghosts)]
            elif event["type"] == "window_closed":
                while queue:
                    self._dummy_answer(queue.pop(0))
        return queue

    # -- screens --------------------------------------------------------------
    def _switch_to(self, seat: int) -> None:
        if self.at_screen == seat:
            return
        if self.hot_seat:
            self.io.write("\n" * 40 + RULE)
            self._input(f"Pass the screen to seat {seat}. Seat {seat}, press Enter when only you can see it.")
        self.at_screen = seat

    def _dummy_answer(self, seat: int) -> None:
        """The same prompt a person with a Nope would get, with nothing to choose."""
        self._switch_to(seat)
        self._show_events(seat)
        self.io.write("A card was played. You have nothing to answer it with.")
        self._input("Press Enter to pass.")

    def _ask(self, seat: int, decision) -> None:
        self._switch_to(seat)
        self._show_events(seat)
        self._show_table(seat)
        self.io.write(self._question(decision, seat))
        labels = [self._label(decision, option) for option in decision.options]
        if decision.kind == "choose_position" and len(labels) > 6:  # a long pile: a range, not a list
            self.io.write(f"  1 is the top, {len(labels)} the lowest place offered" if decision.info.get("within")
                          else f"  1 is the top, {len(labels)} the bottom (below every card)")
        else:
            for number, label in enumerate(labels, 1):
                self.io.write(f"  {number}. {label}")
        while True:
            answer = self._input("Your choice (number; ? for your cards' texts, ? N for option N's "
                                 "card; q to quit):").strip()
            if answer.lower() in ("q", "quit"):
                raise Quit()
            if answer.startswith("?"):
                self._explain(seat, decision, answer[1:].strip())
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                self.state.apply_action(decision.options[int(answer) - 1])
                return
            matches = [o for o, label in zip(decision.options, labels)
                       if answer and answer.lower() in (str(o).lower(), label.lower())]
            if len(matches) == 1:
                self.state.apply_action(matches[0])
                return
            self.io.write(f"Please type a number from 1 to {len(labels)}.")

    def _explain(self, seat: int, decision, which: str) -> None:
        """`?`: the printed text of the cards in hand; `? N`: of option N's card."""
        if which.isdigit() and 1 <= int(which) <= len(decision.options):
            card = self.option_card(decision, decision.options[int(which) - 1])
            self.io.write("  " + (self.card_text(card) if card else "That option is not a card."))
            return
        hand = sorted(set(self.state.view(seat).hand), key=self.title)
        for card in hand:
            self.io.write("  " + self.card_text(card))
        if not hand:
            self.io.write("  Your hand is empty.")

    def _input(self, prompt: str) -> str:
        try:
            return self.io.read(printable(prompt))
        except EOFError:
            raise Quit() from None

    def _question(self, decision, seat: int) -> str:
        info, kind = decision.info, decision.kind
        source = self.title(info["source"]) if info.get("source") else ""
        if kind == "action":
            return f"Your turn (you owe {info.get('owed', 1)}). Play a card, or draw to end the turn:"
        if kind == "answer":
            play = info["play"]
            if play.get("moment"):  # a card that answers a moment, not a play
                did = moment_words(play["moment"], play.get("at", "after"), you=play["seat"] == seat)
                said = f"{self.who(play['seat'], seat).capitalize()} {did}"
            else:
                said = f"{self.who(play['seat'], seat).capitalize()} played {self.title(play['id'])}"
            _window, answers = _answers_so_far(self.state.events, len(self.state.events))
            if not answers or len(answers) != info.get("depth", 1) - 1:
                return f"{said}. Answer it?"
            last = info.get("answering") or {}
            chain = ", then ".join(f"{self.who(e['seat'], seat)} answered with {self.title(e['card'])}"
                                   for e in answers)
            where = standing(self.edition, [e["card"] for e in answers], self.title(play["id"]), open_=False)
            return (f"{said}; {chain}. As it stands, {where}. Answer the "
                    f"{self.title(last.get('id'))} of {self.who(last.get('seat'), seat)}?")
        if kind == "combo_card":
            return "Pick the next card of the combo:"
        if kind == "ask":
            return f"{source}: {info.get('question', '')}"
        if kind == "rearrange":
            cards = ", ".join(self.title(c) for c in info.get("cards", []))
            return f"{source}: put these back in a new order, top first (now: {cards})"
        if kind == "choose_number":  # a bid, how many: a secret one is told to nobody else
            secret = " (only you will know it until it is shown)" if info.get("secret") else ""
            return f"{source}: pick a number from {info.get('low')} to {info.get('high')}{secret}"
        what = {"choose_player": "pick a player", "choose_card": "pick a card",
                "choose_title": "name a card", "choose_position": "where in the draw pile?",
                "blind_pick": "take a card you can tell apart, or one at random?"}
        return f"{source}: {what.get(kind, kind)}"

    def _label(self, decision, option) -> str:
        kind = decision.kind
        if kind in ("action", "answer"):
            if option == "draw":
                return "Draw a card (ends your turn)"
            if option == "pass":
                return "Pass"
            parts = str(option).split()
            if option == "play blind":
                return "Play a card picked at random from your hand (you play blind)"
            if parts[0] == "play" and len(parts) == 4:  # a wildcard played as another card
                return f"Play {self.title(parts[1])} as {self.title(parts[3])}"
            if parts[0] == "play":
                return f"Play {self.title(parts[1])}"
            if parts[0] == "act":  # a free action of the edition
                action = next((a for a in self.edition.actions if a.id == parts[1]), None)
                return action.title if action else parts[1]
            combo = next((c for c in self.edition.combos if c.id == parts[1]), None)
            name = combo.title if combo else parts[1]
            return f"{name}" + (f" with {self.title(parts[2])}" if len(parts) > 2 else "")
        if kind == "choose_player":
            return f"seat {option} ({self.state.view(decision.seat).hand_count(option)} cards)"
        if kind == "choose_position":
            # within the top few places only (`within`): the last offered is not the bottom
            size = None if decision.info.get("within") else len(decision.options) - 1
            where = " (top)" if option == 0 else " (bottom)" if option == size else ""
            return f"place {option + 1}{where}"
        if kind == "rearrange":
            cards = decision.info.get("cards", [])
            return ", ".join(self.title(cards[i]) for i in option) if cards else str(option)
        if kind == "blind_pick":
            return "one at random" if option is True else self.title(option)
        if kind in ("choose_card", "choose_title", "combo_card"):
            return self.title(option) if isinstance(option, str) else f"card {option + 1}"
        return "yes" if option is True else "no" if option is False else str(option)

    def _show_table(self, seat: int) -> None:
        view = self.state.view(seat)
        write = self.io.write
        write(RULE)
        write(f"Turn {self.state.table.turn}: seat {view.current}'s turn. You are seat {seat}.")
        for other in range(view.players):
            if not view.alive[other]:
                held = view.hand_count(other)
                write(f"  seat {other}{' (you)' if other == seat else ''}: out"
                      + (f", {_cards(held)}" if held else ""))
                continue
            owed = view.owed[other]
            extra = f", owes {owed} turns" if owed > 1 else ""
            if other == seat:
                write(f"  seat {other} (you): {_cards(len(view.hand))}{extra}")
                continue
            known = view.known_in_hand(other)
            seen = f"; you know they hold {', '.join(self.title(c) for c in known)}" if known else ""
            write(f"  {self.who(other, seat)}: {_cards(view.hand_count(other))}{extra}{seen}")
        known = view.draw_pile_known()
        pile = f"Draw pile: {_cards(view.draw_pile_count)}"
        if known:
            pile += "; you know " + ", ".join(f"place {p + 1}: {self.title(c)}" for p, c in sorted(known.items()))
        write(pile)
        discard = view.discard_pile
        shown = ", ".join(self.title(c) for c in discard[:6]) + (" ..." if len(discard) > 6 else "")
        write(f"Discard pile ({len(discard)}), top first: {shown or 'empty'}")
        table = self.state.table
        for name in table.extra:
            self._write_zone(name.replace("_", " ").capitalize(), view.zone(name))
        for name, zones in table.areas.items():
            for other in range(view.players):
                if zones[other].cards:
                    self._write_zone(f"{name.replace('_', ' ').capitalize()} of "
                                     f"{'you' if other == seat else f'seat {other}'}", view.zone(name, other))
        for name, values in view.counters.items():  # scores, tokens, marks; hidden ones as "?"
            write(f"{name.replace('_', ' ').capitalize()}: " +
                  ", ".join(f"{'you' if other == seat else f'seat {other}'} {'?' if value is None else value}"
                            for other, value in enumerate(values)))
        if table.direction < 0:
            write("Play goes in reverse (down the seat numbers).")
        hand = sorted(view.hand, key=self.title)
        write("Your hand: " + (", ".join(self.title(c) for c in hand) or "empty"))

    def _write_zone(self, label: str, shown: dict) -> None:
        if "cards" in shown:
            if shown["cards"]:
                self.io.write(f"{label}: " + ", ".join(self.title(c) for c in shown["cards"]))
        elif shown["count"]:
            known = "; you know " + ", ".join(f"{self.title(c)} (place {p + 1})" for p, c in
                                             sorted(shown["known"].items())) if shown["known"] else ""
            self.io.write(f"{label}: {_cards(shown['count'])} face down{known}")

    def _show_events(self, seat: int) -> None:
        events = self.state.events
        start = self.cursor[seat]
        if start == 0:  # setup is summed up, not told card by card
            start = next((i for i, e in enumerate(events) if e["type"] in AFTER_THE_DEAL), len(events))
            self.io.write("The cards are dealt.")
        shown = [(place, for_seat(event, seat)) for place, event in enumerate(events[start:], start)]
        places = [place for place, e in shown if e is not None]  # where each event seen stands in all
        seen = [e for _place, e in shown if e is not None]
        absorbed = _knockouts(seen)
        for index, event in enumerate(seen):
            if absorbed.get(index, index) != index:
                continue  # told in the knock-out's one line
            if event["type"] == "move" and event["to"] == "discard_pile" and _played(seen, index):
                continue  # the `play` or `answer` event that follows tells it
            if event["type"] == "out":
                line = self._knockout_line(seen, index, absorbed, seat)
            elif event["type"] == "answer":  # (an earlier screen may have shown the play)
                line = self._answer_line(events, places[index], seat)
            else:
                line = self.describe(event, seat)
            if line:
                self.io.write("  * " + line)
        self.cursor[seat] = len(events)

    def describe(self, event: dict, viewer: int) -> str | None:
        """One event as a sentence for ``viewer`` (None: not worth a line)."""
        kind, who = event["type"], (lambda s: self.who(s, viewer))
        if kind == "turn":
            owed = event["owed"]
            return f"{who(event['seat']).capitalize()}: turn {event['number']}" + \
                (f" (owes {owed})" if owed > 1 else "")
        if kind == "play" and "action" in event:
            action = next((a for a in self.edition.actions if a.id == event["action"]), None)
            return f"{who(event['seat']).capitalize()}: {action.title if action else event['action']}."
        if kind == "play":
            what = event.get("card") or event.get("combo")
            name = self.title(what) if "card" in event else next(
                (c.title for c in self.edition.combos if c.id == what), what)
            cards = "" if "card" in event else " (" + ", ".join(self.title(c) for c in event["cards"]) + ")"
            return f"{who(event['seat']).capitalize()} played {name}{cards}."
        if kind == "answer":
            return f"{who(event['seat']).capitalize()} answered with {self.title(event['card'])}!"
        if kind == "cancelled":
            if "combo" in event:
                name = next((c.title for c in self.edition.combos if c.id == event["combo"]), event["combo"])
                return f"{name} was cancelled."
            return f"{self.title(event['card'])} was cancelled."
        if kind == "chose" and isinstance(event["value"], int):
            return f"{who(event['seat']).capitalize()} picked seat {event['value']}."
        if kind == "chose" and isinstance(event["value"], str):
            return f"{who(event['seat']).capitalize()} named {self.title(event['value'])}."
        if kind == "extra_turns":
            take = "take" if event["seat"] == viewer else "takes"
            return f"{who(event['seat']).capitalize()} {take} {event['turns']} extra turn(s): {event['owed']} owed."
        if kind == "attacked":
            owe = "owe" if event["victim"] == viewer else "owes"
            return f"{who(event['victim']).capitalize()} now {owe} {event['owed']} turns."
        if kind == "shuffled" and event["zone"] == "draw_pile":
            return "The draw pile was shuffled."
        if kind == "show":
            if "cards" in event:
                cards = ", ".join(f"{self.title(c)} (place {p + 1})" for c, p in zip(event["cards"], event["at"]))
                return f"You see: {cards}."
            return f"{who(event['seats'][0]).capitalize()} looked at {event['count']} cards."
        if kind == "reveal":
            return "Shown to everyone: " + ", ".join(
                f"{self.title(c)} ({self._zone(z, viewer)})"
                for c, z in zip(event["cards"], event["zones"])) + "."
        if kind == "move":
            return self._describe_move(event, viewer)
        if kind == "out":
            return f"{who(event['seat']).capitalize()} {'are' if event['seat'] == viewer else 'is'} out of the game!"
        if kind == "empty_pile":
            return "The draw pile is empty: nothing to draw."
        if kind == "nothing_taken":
            return f"Nothing {self._zone(event['zone'], viewer)} may be taken."
        if kind == "kept":
            return f"{self.title(event['card'])} stays {self._zone(event['zone'], viewer)}: it cannot be taken."
        if kind == "reversed":
            return "The direction of play is reversed."
        if kind == "blind_miss":
            picked = self.title(event["card"])
            return f"{who(event['seat']).capitalize()} picked {picked} blind; it cannot be played now."
        if kind == "check":
            return f"{who(event['seat']).capitalize()}: {self.check_text(event['id'])}"
        if kind == "trigger":
            text = next((t.text for t in self.edition.triggers if t.id == event["id"]), event["id"])
            return f"{who(event['seat']).capitalize()}: {text}"
        if kind == "counter" and "value" not in event:  # a hidden counter: that it changed, not to what
            return f"{who(event['seat']).capitalize()}: {event['name'].replace('_', ' ')} was set, in secret."
        if kind == "counter":
            return f"{who(event['seat']).capitalize()}: {event['name'].replace('_', ' ')} is now {event['value']}."
        if kind == "seat_back":
            return f"{who(event['seat']).capitalize()} {'are' if event['seat'] == viewer else 'is'} back in the game!"
        if kind == "kept_in":
            return f"{who(event['seat']).capitalize()} {'stay' if event['seat'] == viewer else 'stays'} in the game!"
        if kind == "draw_cancelled":
            return f"The card {who(event['seat'])} drew does not take effect."
        if kind == "played_as":
            return f"{who(event['seat']).capitalize()} carried out {self.title(event['card'])}."
        if kind == "scores":
            return "Final scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(event["scores"])) + "."
        return None

    def _answer_line(self, events: list, index: int, viewer: int) -> str:
        """An answer (a Nope; ``events[index]`` of all the game's events), and where it
        leaves the play it answers: cancelled, or standing again after a Nope of a Nope."""
        line = self.describe(events[index], viewer) or ""
        window, answers = _answers_so_far(events, index + 1)
        if window is None:
            return line
        where = standing(self.edition, [e["card"] for e in answers], self.title(window["id"]))
        return f"{line[:-1]}: {where}."

    def _knockout_line(self, events: list, out_index: int, absorbed: dict, viewer: int) -> str:
        """A player knocked out, in one line: what was shown and where their hand went."""
        event = events[out_index]
        who = self.who(event["seat"], viewer)
        parts = [i for i, target in absorbed.items() if target == out_index]
        shown = [self.title(c) for i in parts if events[i]["type"] == "reveal" for c in events[i]["cards"]]
        hand = [self.title(events[i].get("card")) for i in parts
                if events[i]["type"] == "move" and events[i].get("card")]
        line = f"{who.capitalize()} {'are' if event['seat'] == viewer else 'is'} out of the game"
        if shown:
            line += f" ({', '.join(shown)} shown)"
        if hand:
            line += f"; {'your' if event['seat'] == viewer else 'their'} cards went to the discard pile: " \
                    + ", ".join(hand)
        return line + "."

    def _describe_move(self, event: dict, viewer: int) -> str | None:
        source, target, card = event["from"], event["to"], event.get("card")
        name = self.title(card) if card else "a card"
        def seat_of(zone):
            return int(zone.split()[1]) if zone.startswith("hand ") else None

        src, dst = seat_of(source), seat_of(target)
        if source == "draw_pile" and dst is not None:
            return f"{self.who(dst, viewer).capitalize()} drew {name}."
        if src is not None and dst is not None:
            return f"{self.who(dst, viewer).capitalize()} took {name} from {self.who(src, viewer)}."
        if source == "discard_pile" and dst is not None:
            return f"{self.who(dst, viewer).capitalize()} took {name} from the discard pile."
        if target == "draw_pile":
            where = f" at place {event['at'] + 1}" if "at" in event else " at a secret place"
            return f"{name.capitalize() if not card else name} went back into the draw pile{where}."
        if src is not None and target == "discard_pile":
            return f"{self.who(src, viewer).capitalize()} discarded {name}."
        return None

    def check_text(self, check_id: str) -> str:
        return next((c.text for c in self.edition.checks if c.id == check_id), check_id)

    def _zone(self, zone: str, viewer: int) -> str:
        if zone.startswith("hand "):
            seat = int(zone.split()[1])
            return "in your hand" if seat == viewer else f"in seat {seat}'s hand"
        return zone.replace("_", " ")


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _knockouts(events: list) -> dict:
    """Index of each event told as part of a knock-out -> the index of its `out` event: the
    moves of the player's cards to the discard pile just before it, and the reveal before
    those."""
    absorbed = {}
    for index, event in enumerate(events):
        if event["type"] != "out":
            continue
        hand, j = f"hand {event['seat']}", index - 1
        while j >= 0 and events[j]["type"] == "move" and events[j]["from"] == hand \
                and events[j]["to"] == "discard_pile" and j not in absorbed:
            absorbed[j] = index
            j -= 1
        if j >= 0 and events[j]["type"] == "reveal" and all(
                z == hand for z in events[j].get("zones", ())) and j not in absorbed:
            absorbed[j] = index
        absorbed.setdefault(index, index)  # marks the out event itself as a knock-out
    return absorbed


def _answers_so_far(events: list, stop: int) -> tuple:
    """(the `window` event of the reaction window open at ``stop``, its `answer` events
    before ``stop`` in order), or (None, []) when no window is open there."""
    answers = []
    for place in range(stop - 1, -1, -1):
        kind = events[place]["type"]
        if kind == "answer":
            answers.append(events[place])
        elif kind == "window":
            return events[place], answers[::-1]
        elif kind == "window_closed":
            break
    return None, []


def _played(events: list, index: int) -> bool:
    """Whether the moves to the discard pile starting at ``index`` are a card being played."""
    for event in events[index:]:
        if event["type"] != "move":
            return event["type"] in ("play", "answer")
    return False
