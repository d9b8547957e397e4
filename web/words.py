"""Events, decisions and their options in words, for one viewer.

Everything here works from what the viewer may see: an event as
``events.for_seat`` gives it (fields hidden from the viewer are simply absent),
a decision asked of the viewer, the names of the seats. The same sentences
serve players (``viewer`` a seat) and spectators (``viewer`` None).
"""

from __future__ import annotations

import re

from ..interpreter.engine.endings import no_winner
from ..interpreter.lang import syntax as s
from ..interpreter.rules.model import ANSWERABLE_MOMENTS as MOMENT_NAMES
from ..interpreter.words.answers import moment_words, printed_text

PASS, DRAW, PLAY_BLIND = "pass", "draw", "play blind"
#: a rule's text that speaks to the player it applies to ("at the end of your turn")
_SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)


class Words:
    """Card titles and texts of one edition, and the seats' names."""

    def __init__(self, edition, labels: list[str]) -> None:
        self.edition = edition
        self.labels = labels  # per seat: "person" or the bot's name
        self.chosen: dict = {}  # seat -> the name its person chose (web/social.py)
        self.combos = {combo.id: combo for combo in edition.combos}
        self.checks = {check.id: check.text for check in edition.checks}
        self.triggers = {trigger.id: trigger.text for trigger in edition.triggers}
        self.actions = {action.id: action for action in edition.actions}
        # rule id -> its effects, to read what a choice inside them is for (see purpose)
        self.effects = {card.id: [p for p in (card.effect, card.on_draw, card.instead_of_draw) if p is not None]
                        for card in edition.cards.values()}
        for rule in (*edition.combos, *edition.checks, *edition.triggers, *edition.actions):
            self.effects[rule.id] = [rule.effect] if getattr(rule, "effect", None) is not None else []

    # -- names ------------------------------------------------------------------
    def title(self, rule_id) -> str:
        card = self.edition.cards.get(rule_id)
        if card is not None:
            return card.title
        combo = self.combos.get(rule_id)
        if combo is not None:
            return combo.title
        action = self.actions.get(rule_id)
        return action.title if action is not None else str(rule_id).replace("_", " ")

    def text(self, rule_id) -> str:
        card = self.edition.cards.get(rule_id)
        if card is not None:
            return printed_text(self.edition, card)
        combo = self.combos.get(rule_id)
        return printed_text(self.edition, combo) if combo is not None else ""

    def seat_name(self, seat: int) -> str:
        if seat in self.chosen:
            return self.chosen[seat]
        label = self.labels[seat] if 0 <= seat < len(self.labels) else "person"
        return f"Seat {seat}" + ("" if label == "person" else f" ({label} bot)")

    def short_name(self, seat: int) -> str:
        """The seat's name without its bot's label, for "Seat 2's hand"."""
        return self.chosen.get(seat, f"Seat {seat}")

    def who(self, seat, viewer) -> str:
        return "you" if seat == viewer else self.seat_name(seat)

    def Who(self, seat, viewer) -> str:  # noqa: N802 (the capitalised form, to start a sentence)
        text = self.who(seat, viewer)
        return text[:1].upper() + text[1:]

    def zone(self, name: str, viewer) -> str:
        if name.startswith("hand "):
            seat = int(name.split()[1])
            return "your hand" if seat == viewer else f"{self.short_name(seat)}'s hand"
        base, _, owner = name.rpartition(" ")
        if base and owner.isdigit():  # a per-player zone, e.g. "playmat 2"
            seat = int(owner)
            return f"{base.replace('_', ' ')} of " + ("yours" if seat == viewer else self.short_name(seat))
        return name.replace("_", " ")

    # -- decisions --------------------------------------------------------------
    def question(self, decision, viewer, hand_counts: dict | None = None, announced=()) -> str:
        """What a decision asks of the viewer, in a sentence: whose card or rule asks, and
        what the choice is for when its effect says (a card given, a card discarded).
        ``hand_counts``: seat -> cards held; ``announced``: (name, value) the play under
        way told everyone (a claim's title), named in a question asked of another seat."""
        info, kind = decision.info, decision.kind
        source = self.title(info["source"]) if info.get("source") else ""
        if kind == "action":
            owed = info.get("owed", 1)
            blind = " You play blind: a card you play is picked at random." if info.get("blind") else ""
            return (f"Your turn{f' (you owe {owed} turns)' if owed > 1 else ''}: play a card, "
                    f"or draw to end the turn.{blind}")
        if kind == "answer":
            play = info.get("answering") or info.get("play") or {}
            if play.get("moment"):  # a card that answers a moment, not a play
                said = moment_words(play["moment"], play.get("at", "after"), you=play.get("seat") == viewer)
                return f"{self.Who(play.get('seat'), viewer)} {said}. Answer it?"
            return f"{self.Who(play.get('seat'), viewer)} played {self.title(play.get('id'))}. Answer it?"
        if kind == "combo_card":
            picked = ", ".join(self.title(c) for c in info.get("picked", []))
            return f"{self.title(info.get('combo'))}: pick the next card" + (f" (so far: {picked})" if picked else "")
        if kind == "ask":
            whose = self._whose(info, decision.seat)
            told = ", ".join(f"{name.replace('_', ' ')}: " + (self.title(value) if isinstance(value, str)
                                                             else self.who(value, viewer))
                             for name, value in announced) if whose else ""
            return f"{whose}{source}{f' ({told})' if told else ''}: {info.get('question', '')}"
        if kind == "choose_card":
            purpose = self.purpose(info.get("source"), decision.seat == info.get("actor"))
            actor = info.get("actor")
            if purpose == "give" and actor is not None and actor != decision.seat:
                return f"{self.short_name(actor)}'s {source}: give {self.short_name(actor)} a card of your choice."
            if purpose == "discard":
                count = (hand_counts or {}).get(decision.seat)
                limit = self.hand_limit(info.get("source"))
                if count is None:
                    held = ""
                elif limit is not None and count > limit:  # a rule that runs while the hand is over a size
                    held = f", down to {limit} ({count - limit} more to go)"
                else:
                    held = f" (you hold {count} card{'s' if count != 1 else ''})"
                whose = self._whose(info, decision.seat)
                said = f"{whose}{source}" if whose else source[:1].upper() + source[1:]
                return f"{said}: discard a card of your choice{held}."
        if kind == "rearrange":
            return f"{source}: put these cards back in the order you want, top first."
        if kind == "choose_number":  # a bid, how many: a secret one is told to nobody else
            secret = " (only you will know it until it is shown)" if info.get("secret") else ""
            return f"{source}: pick a number from {info.get('low')} to {info.get('high')}{secret}"
        if kind == "choose_player" and info.get("secret"):
            return f"{source}: pick a player (only you will know whom until it is shown)"
        what = {"choose_player": "pick a player", "choose_card": "pick a card",
                "choose_title": "name a card", "choose_position": "where in the draw pile?",
                "blind_pick": "take the card you can tell apart, or one at random?"}
        return f"{source}: {what.get(kind, kind.replace('_', ' '))}"

    def _whose(self, info: dict, seat) -> str:
        """ "Ben's " when another seat's card or rule asks this seat, else nothing."""
        actor = info.get("actor")
        return f"{self.short_name(actor)}'s " if actor is not None and actor != seat else ""

    def hand_limit(self, rule_id) -> int | None:
        """The hand size a check or trigger runs above, read from its condition
        (``count(hand(me)) > N``, N a number or a parameter), else None."""
        rule = next((r for r in (*self.edition.checks, *self.edition.triggers) if r.id == rule_id), None)
        found = getattr(rule, "condition", None)
        if not isinstance(found, s.Compare) or found.op not in (">", ">="):
            return None
        left, right = found.left, found.right
        if not (isinstance(left, s.Call) and left.name == "count" and left.args and isinstance(left.args[0], s.Call)
                and left.args[0].name == "hand" and left.args[0].args
                and isinstance(left.args[0].args[0], s.Name) and left.args[0].args[0].id == "me"):
            return None
        value = right.value if isinstance(right, s.IntLit) else \
            self.edition.params.get(right.name) if isinstance(right, s.RuleRef) else None
        if type(value) is not int:
            return None
        return value if found.op == ">" else value - 1

    def purpose(self, rule_id, own: bool) -> str | None:
        """What a card chosen in ``rule_id``'s effect is for, read from the effect: "give"
        (moved to another hand), "discard", or None when the effect does not say or its
        choices differ. ``own``: the choice is the effect's player's own (no ``by=``),
        else another player's."""
        found = set()
        for effect in self.effects.get(rule_id, ()):
            for node in s.walk(effect):
                if isinstance(node, s.Let) and _chooses(node.value, own):
                    found.add(None)  # kept for later: what it is for is not said here
                if not isinstance(node, s.Call) or not node.args or not _chooses(node.args[0], own):
                    continue
                if node.name == "discard":
                    found.add("discard")
                elif node.name == "move" and len(node.args) > 1 and isinstance(node.args[1], s.Call) \
                        and node.args[1].name == "hand":
                    found.add("give")
                else:
                    found.add(None)
        return found.pop() if len(found) == 1 else None

    def option(self, decision, option, hand_counts: dict) -> dict:
        """One option as a button: its label, and the card it names (for its text)."""
        kind = decision.kind
        if kind in ("action", "answer"):
            return self._play_option(option)
        if kind == "choose_player":
            count = hand_counts.get(option)
            cards = "" if count is None else f", {count} card" + ("" if count == 1 else "s")
            return {"label": self.seat_name(option) + cards}
        if kind == "choose_position":
            # within the top few places only (`within`): the last offered is not the bottom
            size = None if decision.info.get("within") else len(decision.options) - 1
            where = "top" if option == 0 else "bottom" if option == size else f"place {option + 1}"
            return {"label": where if size != 0 else "top", "place": option}
        if kind == "rearrange":
            cards = decision.info.get("cards", [])
            return {"label": ", ".join(self.title(cards[i]) for i in option), "order": list(option)}
        if kind == "blind_pick":
            return {"label": "one at random"} if option is True else \
                {"label": self.title(option), "card": option}
        if kind in ("choose_card", "choose_title", "combo_card"):
            if isinstance(option, str):
                return {"label": self.title(option), "card": option}
            return {"label": f"card {option + 1}"}
        return {"label": "yes" if option is True else "no" if option is False else str(option)}

    def _play_option(self, option) -> dict:
        if option == DRAW:
            return {"label": "Draw a card", "hint": "ends your turn"}
        if option == PASS:
            return {"label": "Pass"}
        if option == PLAY_BLIND:
            return {"label": "Play a card at random", "hint": "you play blind"}
        parts = str(option).split()
        if parts[0] == "play" and len(parts) == 4:  # a wildcard played as another title
            return {"label": f"Play {self.title(parts[1])} as {self.title(parts[3])}", "card": parts[3]}
        if parts[0] == "play":
            return {"label": f"Play {self.title(parts[1])}", "card": parts[1]}
        if parts[0] == "act":  # a free action of the edition
            action = self.actions.get(parts[1])
            return {"label": action.title if action else parts[1], "hint": action.text if action else ""}
        label = self.title(parts[1]) + (f" with {self.title(parts[2])}" if len(parts) > 2 else "")
        return {"label": label, "combo": parts[1]}

    def discards(self, seat: int, cards: list, viewer) -> str:
        """Several cards one hand discarded, one after another, in one sentence."""
        return f"{self.Who(seat, viewer)} discarded {', '.join(self.title(card) for card in cards)}."

    def round_question(self, event: dict, viewer) -> str:
        """The prompt every person in a reaction window gets: built from the public event
        that opened the round, so it reads the same whoever holds an answer."""
        if event["type"] == "answer":
            return f"{self.Who(event['seat'], viewer)} answered with {self.title(event['card'])}. Anyone answering?"
        if event["id"] in MOMENT_NAMES:  # a window on a moment (a card's `answers:`)
            said = moment_words(event["id"], event.get("at", "after"), you=event["seat"] == viewer)
            return f"{self.Who(event['seat'], viewer)} {said}. Anyone answering?"
        verb = "spent" if event.get("spent") else "played"  # a Defuse spent by a kitten's effect
        return f"{self.Who(event['seat'], viewer)} {verb} {self.title(event['id'])}. Anyone answering?"

    # -- events -----------------------------------------------------------------
    def event(self, event: dict, viewer) -> str | None:
        """An event as the viewer sees it, in a sentence (None: not worth a line)."""
        kind = event["type"]
        handler = getattr(self, "_" + kind, None)
        return handler(event, viewer) if handler is not None else None

    def _turn(self, event, viewer):
        owed, verb = event["owed"], "owe" if event["seat"] == viewer else "owes"
        return (f"Turn {event['number']}: {self.who(event['seat'], viewer)}"
                + (f" ({verb} {owed} turns)" if owed > 1 else "") + ".")

    def _play(self, event, viewer):
        if "action" in event:
            action = self.actions.get(event["action"])
            return f"{self.Who(event['seat'], viewer)}: {action.title if action else event['action']}."
        if "card" in event:
            return f"{self.Who(event['seat'], viewer)} played {self.title(event['card'])}."
        cards = ", ".join(self.title(c) for c in event.get("cards", []))
        return f"{self.Who(event['seat'], viewer)} played {self.title(event['combo'])} ({cards})."

    def _answer(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)} answered with {self.title(event['card'])}!"

    def _window_closed(self, event, viewer):
        answers = event.get("answers", 0)
        return "Nobody answered." if not answers else None

    def _cancelled(self, event, viewer):
        return f"{self.title(event.get('card') or event.get('combo'))} was cancelled."

    def _fizzled(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)}'s play had nothing to act on."

    def _chose(self, event, viewer):
        value, who = event.get("value"), self.Who(event["seat"], viewer)
        if isinstance(value, bool) or value is None:
            return None
        if isinstance(value, int):
            return f"{who} picked {self.who(value, viewer)}."
        if isinstance(value, str):
            return f"{who} named {self.title(value)}."
        if isinstance(value, dict) and value.get("secret"):
            return f"{who} chose in secret."
        return None

    def _attacked(self, event, viewer):
        victim = event["victim"]
        verb = "owe" if victim == viewer else "owes"
        return f"{self.Who(victim, viewer)} now {verb} {event['owed']} turns."

    def _end_turn(self, event, viewer):
        return None

    def _extra_turns(self, event, viewer):
        verb = "take" if event["seat"] == viewer else "takes"
        extra = event["turns"]
        return (f"{self.Who(event['seat'], viewer)} {verb} {extra} extra turn{'s' if extra != 1 else ''} "
                f"({event['owed']} owed in all).")

    def _pass_over(self, event, viewer):
        times = event["turns"]
        return (f"{self.Who(event['seat'], viewer)} will be passed over"
                + (f" the next {times} times play comes round." if times != 1 else " next time."))

    def _passed_over(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)} {'are' if event['seat'] == viewer else 'is'} passed over."

    def _reversed(self, event, viewer):
        return "The direction of play is reversed."

    def _shuffled(self, event, viewer):
        return f"The {self.zone(event['zone'], viewer)} was shuffled."

    def _empty_pile(self, event, viewer):
        return "The draw pile is empty: nothing to draw."

    def _out(self, event, viewer):
        verb = "are" if event["seat"] == viewer else "is"
        return f"{self.Who(event['seat'], viewer)} {verb} out of the game!"

    def _blind_miss(self, event, viewer):
        return (f"{self.Who(event['seat'], viewer)} picked {self.title(event['card'])} blind: "
                "it cannot be played now.")

    def _check(self, event, viewer):
        return self._rule_line(event, self.checks, viewer)

    def _trigger(self, event, viewer):
        return self._rule_line(event, self.triggers, viewer)

    def _rule_line(self, event, texts: dict, viewer) -> str:
        """A check or trigger of the edition applying to a seat. Its text speaks to the
        player ("at the end of your turn"): read by anyone else, the line names the rule
        and whom it applies to instead."""
        seat, text = event["seat"], texts.get(event["id"], event["id"])
        if seat != viewer and _SECOND_PERSON.search(text):
            return f"A rule applies to {self.seat_name(seat)}: {event['id'].replace('_', ' ')}."
        return f"{self.Who(seat, viewer)}: {text}"

    def _counter(self, event, viewer):
        if "value" not in event:  # a hidden counter: that it changed, not to what
            return f"{self.Who(event['seat'], viewer)}: {event['name'].replace('_', ' ')} was set, in secret."
        return f"{self.Who(event['seat'], viewer)}: {event['name'].replace('_', ' ')} is now {event['value']}."

    def _seat_back(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)} {'are' if event['seat'] == viewer else 'is'} back in the game!"

    def _kept_in(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)} {'stay' if event['seat'] == viewer else 'stays'} in the game!"

    def _draw_cancelled(self, event, viewer):
        return f"The card {self.who(event['seat'], viewer)} drew does not take effect."

    def _played_as(self, event, viewer):
        return f"{self.Who(event['seat'], viewer)} carried out {self.title(event['card'])}."

    def _scores(self, event, viewer):
        return "Final scores: " + ", ".join(f"{self.who(seat, viewer)} {score}"
                                            for seat, score in enumerate(event["scores"])) + "."

    def _show(self, event, viewer):
        if "cards" in event:
            cards = ", ".join(f"{self.title(c)} (place {p + 1})" for c, p in zip(event["cards"], event["at"]))
            return f"You see in the {self.zone(event['zone'], viewer)}: {cards}."
        seats = event.get("seats", [])
        who = " and ".join(self.who(s, viewer) for s in seats) or "someone"
        zone = self.zone(event["zone"], viewer)
        count = event["count"]
        return f"{who[:1].upper() + who[1:]} looked at {count} card{'s' if count != 1 else ''} of the {zone}."

    def _reveal(self, event, viewer):
        shown = ", ".join(f"{self.title(c)} ({self.zone(z, viewer)})"
                          for c, z in zip(event["cards"], event["zones"]))
        return f"Shown to everyone: {shown}."

    def _rearranged(self, event, viewer):
        return f"The top cards of the {self.zone(event['zone'], viewer)} were put in a new order."

    def _game_over(self, event, viewer):
        winners = event.get("winners") or ([event["winner"]] if event.get("winner") is not None else [])
        if not winners:
            return f"Game over: {no_winner(event.get('reason'))}."
        names = " and ".join(self.who(s, viewer) for s in winners)
        verb = "win" if len(winners) > 1 or winners[0] == viewer else "wins"
        return f"Game over: {names} {verb}!"

    def _move(self, event, viewer):
        source, target = event["from"], event["to"]
        card = event.get("card")
        name = self.title(card) if card else "a card"
        src, dst = _hand_seat(source), _hand_seat(target)
        if source == "draw_pile" and dst is not None:
            where = " from the bottom" if event.get("from_at", 0) else ""
            return f"{self.Who(dst, viewer)} drew {name}{where}."
        if src is not None and dst is not None and event.get("given"):
            return f"{self.Who(src, viewer)} gave {name} to {self.who(dst, viewer)}."
        if src is not None and dst is not None:
            return f"{self.Who(dst, viewer)} took {name} from {self.who(src, viewer)}."
        if dst is not None:
            return f"{self.Who(dst, viewer)} took {name} from the {self.zone(source, viewer)}."
        if target == "draw_pile":
            place = event.get("at")
            where = f" at place {place + 1}" if isinstance(place, int) else " at a secret place"
            return f"{name[:1].upper() + name[1:]} went into the draw pile{where}."
        if src is not None and target == "discard_pile":
            return f"{self.Who(src, viewer)} discarded {name}."
        if src is not None:
            places = f"{self.zone(source, viewer)} to the {self.zone(target, viewer)}"
            return f"{name[:1].upper() + name[1:]} went from {places}."
        return None


def _chooses(node, own: bool) -> bool:
    """Whether ``node`` is a card chosen by the effect's player (``own``) or by another."""
    if not isinstance(node, s.Call) or node.name != "choose_card":
        return False
    by = next((k.value for k in node.kwargs if k.name == "by"), None)
    mine = by is None or (isinstance(by, s.Name) and by.id == "me")
    return mine == own


def _hand_seat(zone: str):
    return int(zone.split()[1]) if zone.startswith("hand ") else None


def played_moves(events: list, index: int) -> bool:
    """Whether the moves to the discard pile starting at ``index`` are the cards of a play
    (the `play` or `answer` event that follows tells it, so they need no line)."""
    for event in events[index:]:
        if event is None:
            continue
        if event["type"] != "move":
            return event["type"] in ("play", "answer")
    return False
