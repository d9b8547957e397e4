"""The rulesheet: an edition written out for one player count, from the data alone.

``render_rulesheet`` builds a list of blocks (headings, paragraphs, lists,
tables) once and renders it as Markdown or as a self-contained HTML page, so
both formats always say the same. The sheet gives the setup with every count
resolved for the player count (the dry run's bookkeeping, step by step), the
deck, every card with its printed text and its effect in words
(:mod:`describe`), the combos, the rules and parameters, and the number check:
cards whose printed text and effect disagree on a key number.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, replace

from ..lang import primitives as P
from ..lang import syntax as s
from ..lang.counts import step_count
from ..lang.loader import load_file
from ..rules.model import Edition
from ..rules.setup import dry_run
from ..rules.textcheck import effect_trees as _trees
from ..rules.textcheck import number_mismatches
from .answers import printed_text
from .describe import choice_names, describe_expression, describe_program, sentence, words
from .howto import change_sentences, how_to_play, slot_words, switches, variant_sections

FORMATS = ("markdown", "html", "json")


# -- the blocks a sheet is made of ------------------------------------------------
class Code(str):
    """Text shown as code (a parameter's name)."""


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Para:
    text: str
    label: str | None = None  # a bold lead-in: "In rules terms:"


@dataclass(frozen=True)
class Quote:
    text: str  # printed card text


@dataclass(frozen=True)
class Items:
    items: tuple


@dataclass(frozen=True)
class Table:
    header: tuple
    rows: tuple


# -- the sheet --------------------------------------------------------------------
def render_rulesheet(edition: Edition, players: int, fmt: str = "markdown",
                     changes: list | None = None, base: Edition | None = None) -> str:
    """The rulesheet of ``edition`` for ``players``, as ``markdown``, ``html`` or ``json``.

    ``changes``: what the edition changes against ``base`` (a house rule against
    the edition it extends, a variant against its edition), from
    :func:`resolved.diff`; told in sentences in their own section.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}': use one of {', '.join(FORMATS)}")
    lo, hi = edition.players
    if not lo <= players <= hi:
        raise ValueError(f"{edition.name} is for {lo} to {hi} players, not {players}")
    blocks = sheet_blocks(edition, players, changes, base)
    if fmt == "json":
        return render_json(blocks, _title(edition))
    return render_markdown(blocks) if fmt == "markdown" else render_html(blocks, _title(edition))


def sheet_blocks(edition: Edition, players: int, changes: list | None = None,
                 base: Edition | None = None) -> list:
    """Every block of the sheet, in order, before rendering."""
    blocks = _title_blocks(edition)
    if base is not None and changes is not None:
        blocks += _change_blocks(edition, base, changes)
    blocks += [Heading(2, "How to play")]
    blocks += [Para(text, label) for label, text in how_to_play(edition, players)]
    blocks += _setup_blocks(edition, players)
    blocks += _deck_blocks(edition, players)
    blocks += _card_blocks(edition, players)
    blocks += _combo_blocks(edition)
    blocks += _rule_blocks(edition)
    if not edition.variant and edition.variants:
        blocks += _variant_blocks(edition)
    findings = number_mismatches(edition)
    if findings:
        blocks += [Heading(2, "Where a card's text and its effect disagree"),
                   Items(tuple(f"{_record_title(edition, f.card_id)}: {f.message}" for f in findings))]
    return blocks


def _change_blocks(edition: Edition, base: Edition, changes: list) -> list:
    what = "this variant changes" if edition.variant else "these rules change"
    label = base.name + (f" ({words(base.variant)} variant)" if base.variant else "")
    lines = change_sentences(changes, base, edition)
    if not lines:
        return [Heading(2, f"What {what}"), Para(f"Nothing in the rules differs from {label}.")]
    return [Heading(2, f"What {what}"),
            Para(f"Played as {label}, except:"), Items(tuple(lines))]


def _variant_blocks(edition: Edition) -> list:
    blocks = [Heading(2, "Variants"),
              Para("Agree on one before you deal; each changes the game as it says.")]
    for name, description, lines in variant_sections(edition):
        blocks.append(Heading(3, name))
        if description:
            blocks.append(Quote(description))
        if lines:
            blocks.append(Items(tuple(lines)))
    return blocks


def _title(edition: Edition) -> str:
    return edition.name + (f" ({words(edition.variant)} variant)" if edition.variant else "")


def _title_blocks(edition: Edition) -> list:
    lo, hi = edition.players
    blocks = [Heading(1, _title(edition)),
              Para(f"For {lo} players." if lo == hi else f"For {lo} to {hi} players.")]
    blocks += [Quote(text) for text in descriptions(edition)]  # the designers' own words
    return blocks


def descriptions(edition: Edition) -> list[str]:
    """The descriptions the edition's files give (base, expansions, variant), if any.

    The compiled edition does not carry them, so they are read from its files.
    """
    paths = list(getattr(edition, "sources", ()) or
                 [edition.origin.path, *getattr(edition, "expansions", ())])
    docs = [data for data in (_file_data(path) for path in paths) if data]
    own = getattr(edition, "description", None)
    texts = [own] if isinstance(own, str) and own else \
        [d["description"] for d in docs[:1] if isinstance(d.get("description"), str)]
    for data in docs[1:]:  # what each expansion adds, in its own words
        if data.get("kind") == "expansion" and isinstance(data.get("description"), str):
            texts.append(f"{data.get('name', 'Expansion')}: {data['description']}")
    if edition.variant:
        for data in reversed(docs):  # the last file that defines the variant wrote it
            variant = (data.get("variants") or {}).get(edition.variant)
            if isinstance(variant, dict) and isinstance(variant.get("description"), str):
                texts.append(f"This variant: {variant['description']}")
                break
    return [" ".join(text.split()) for text in texts]


def _file_data(path) -> dict | None:
    path = getattr(path, "path", path)  # a path, or a document that knows its path
    if not isinstance(path, str):
        return None
    doc, _problems = load_file(path)
    return doc.data if doc is not None and isinstance(doc.data, dict) else None


def _record_title(edition: Edition, record_id: str) -> str:
    if record_id in edition.cards:
        return edition.cards[record_id].title
    return next((c.title for c in edition.combos if c.id == record_id), record_id)


def _params(edition: Edition) -> dict:
    return {**edition.rules, **edition.params}


def _plural(title: str) -> str:
    """"Exploding Kittens", "copies of See the Future" (titles are names, not words)."""
    if len(title.split()) <= 2 and title[-1:].isalpha() and title[-1] not in "sxy":
        return f"{title}s"
    return f"copies of {title}"


def _copies(n: int, title: str) -> str:
    """"3 Exploding Kittens", "1 Defuse", "2 copies of See the Future"."""
    return f"1 {title}" if n == 1 else f"{n} {_plural(title)}"


def _and(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# -- setup, resolved for one player count -------------------------------------------
class SetupRun:
    """The setup played on card counts for one player count, each step worded.

    The bookkeeping follows the dry run of :mod:`setup` (cards dealt from the
    pile unseen are taken lethal cards first, as it assumes), so the counts it
    finds are the ones the validator checks; a test compares the final piles.
    """

    def __init__(self, edition: Edition, players: int):
        self.edition, self.players = edition, players
        self.params = _params(edition)
        self.pile = Counter(edition.deck_for(players))
        self.aside: Counter = Counter()
        self.hand: list[tuple[int, str | None]] = []  # (count, card id or None) per deal
        self.one_seat: list[tuple] = []  # (seat, who, count, card id or None) per deal to one seat
        self.zones: dict[str, Counter] = {}
        self.removed = 0
        lethal = {card_id for card_id, card in edition.cards.items() if card.lethal}
        self.lethal = lethal
        self._worst_first = sorted(edition.cards, key=lambda c: (c not in lethal, c))
        self.lines = [self._step(step) for step in edition.setup]

    def title(self, card_id: str) -> str:
        card = self.edition.cards.get(card_id)
        return card.title if card is not None else words(card_id)

    def _count(self, step) -> int:
        if step.count is None:
            return 0
        return max(step_count(step, self.players, self.params, self.pile, self.edition.cards), 0)

    def _note(self, step) -> str:
        """How a counted step's count is worked out, when it is not a plain number."""
        if step.count is None or isinstance(step.count, int | tuple):
            return ""
        if isinstance(step.count, s.RuleRef):
            return f" (the edition's “{words(step.count.name)}”)"
        names = {"players": ("the number of players", P.INT),
                 "pile": ("the number of cards in the draw pile", P.INT)}
        return " (" + describe_expression(step.count, self.params, cards=self.edition.cards,
                                          names=names) + ")"

    def _take_unseen(self, amount: int) -> None:
        for card_id in self._worst_first:
            taken = min(amount, self.pile[card_id])
            self.pile[card_id] -= taken
            amount -= taken

    def _zone(self, name: str | None) -> str:
        return {"draw_pile": "the draw pile", "discard_pile": "the discard pile"}.get(
            name, f"the {words(name or 'zone')}")

    def _step(self, step) -> str:
        count = self._count(step)
        return _STEP_WORDING.get(step.kind, SetupRun._unknown)(self, step, count)

    # -- one method per kind of step -----------------------------------------------
    def _set_aside(self, step, count) -> str:
        parts = []
        for card_id in step.cards:
            moved = self.pile.pop(card_id, 0)
            self.aside[card_id] += moved
            parts.append(_copies(moved, self.title(card_id)) if moved else f"no {self.title(card_id)}")
        it = "it" if sum(self.aside[c] for c in step.cards) == 1 else "them"
        return f"Take {_and(parts)} out of the deck and set {it} aside."

    def _deal(self, step, count) -> str:
        if step.zone is not None:  # into a per-player zone, not the hands
            return self._deal_into_zone(step, count)
        if step.to is not None:
            return self._deal_to(step, count)
        if step.cards:
            card_id = step.cards[0]
            self.aside[card_id] = max(self.aside[card_id] - count * self.players, 0)
            self.hand.append((count, card_id))
            return (f"Deal {_copies(count, self.title(card_id))} from those set aside to each "
                    f"player ({count * self.players} in all){self._note(step)}.")
        self._take_unseen(count * self.players)
        self.hand.append((count, None))
        return f"Deal {count} cards from the draw pile to each player{self._note(step)}."

    def _deal_into_zone(self, step, count) -> str:
        """A deal into a per-player zone (`zone:`): the cards lie in front of the players."""
        where = f"into their own {words(step.zone)} zone, in front of them"
        if step.to is not None:
            seat = step_count(replace(step, count=step.to), self.players, self.params, self.pile, self.edition.cards)
            who, many = f"the player in seat {seat}", 1
        else:
            who, many = "each player", self.players
        if step.cards:
            self.aside[step.cards[0]] = max(self.aside[step.cards[0]] - count * many, 0)
            return f"Deal {_copies(count, self.title(step.cards[0]))} from those set aside to {who}, {where}."
        self._take_unseen(count * many)
        return f"Deal {count} card{'s' if count != 1 else ''} from the draw pile to {who}, {where}."

    def _deal_to(self, step, count) -> str:
        """A deal to one seat (`to:`): the seat named, the cards it alone gets kept apart."""
        seat = step_count(replace(step, count=step.to), self.players, self.params, self.pile, self.edition.cards)
        who = "the first player" if seat == 0 else "the last player" if seat == self.players - 1 \
            else f"the player in seat {seat}"
        self.one_seat.append((seat, who, count, step.cards[0] if step.cards else None))
        if step.cards:
            self.aside[step.cards[0]] = max(self.aside[step.cards[0]] - count, 0)
            return f"Deal {_copies(count, self.title(step.cards[0]))} from those set aside to {who} only."
        self._take_unseen(count)
        return f"Deal {count} card{'s' if count != 1 else ''} from the draw pile to {who} only."

    def _put_back(self, step, count) -> str:
        card_id = step.cards[0]
        moved = min(count, self.aside[card_id])
        self.aside[card_id] -= moved
        self.pile[card_id] += moved
        title = self.title(card_id)
        if step.or_fewer and count == 1:
            return (f"Put 1 set-aside {title} back into the draw pile if there is one{self._note(step)}: "
                    f"with {self.players} players, {moved} go{'es' if moved == 1 else ''} back.")
        if step.or_fewer:
            return (f"Put up to {count} of the set-aside {_plural(title) if count != 1 else title}"
                    " back into the draw pile"
                    f"{self._note(step)}: with {self.players} players, {moved} go{'es' if moved == 1 else ''}"
                    " back.")
        return f"Put {_copies(moved, title)} into the draw pile{self._note(step)}."

    def _shuffle(self, step, count) -> str:
        size = sum(self.pile.values()) if step.zone == "draw_pile" else \
            sum(self.zones.get(step.zone, Counter()).values())
        return f"Shuffle {self._zone(step.zone)} ({size} cards)."

    def _remove(self, step, count) -> str:
        held = self.aside if step.zone == "set_aside" else self.zones.setdefault(step.zone, Counter())
        left = [_copies(n, self.title(c)) for c, n in held.items() if n]
        self.removed += sum(held.values())
        held.clear()
        where = "set aside" if step.zone == "set_aside" else f"in {self._zone(step.zone)}"
        return (f"Put whatever is still {where} out of the game: {_and(left)}." if left
                else f"Put whatever is still {where} out of the game (nothing is left).")

    def _place(self, step, count) -> str:
        zone = self.zones.setdefault(step.zone, Counter())
        if step.cards:
            parts = []
            for card_id in step.cards:
                moved = self.pile.pop(card_id, 0)
                zone[card_id] += moved
                parts.append(_copies(moved, self.title(card_id)))
            return f"Move {_and(parts)} from the deck to {self._zone(step.zone)}."
        self._take_unseen(count)
        zone[None] += count
        face = "face up" if self.edition.zones.get(step.zone, {}).get("public", True) else "face down"
        return (f"Move the top {count} cards of the draw pile to {self._zone(step.zone)}, {face}"
                f"{self._note(step)}.")

    def _remove_random(self, step, count) -> str:
        self._take_unseen(count)
        self.removed += count
        return (f"Shuffle the draw pile and take {count} cards off it out of the game, unseen"
                f"{self._note(step)}.")

    def _unknown(self, step, count) -> str:
        return f"{words(step.kind).capitalize()} ({count})."

    # -- the result ---------------------------------------------------------------
    def summary(self) -> list[str]:
        """What the table looks like once setup is done."""
        total = sum(n for n, _c in self.hand)
        parts = [_copies(n, self.title(c)) if c else f"{n} from the draw pile" for n, c in self.hand if n]
        lines = [f"Each player starts with {total} cards in hand ({_and(parts)})." if parts
                 else "Each player starts with no cards in hand."]
        for _seat, who, n, card_id in self.one_seat:
            if n:
                lines.append(f"{who[0].upper()}{who[1:]} also starts with "
                             f"{_copies(n, self.title(card_id)) if card_id else f'{n} more from the draw pile'}.")
        lethal = [_copies(n, self.title(c)) for c, n in self.pile.items() if c in self.lethal and n]
        size = sum(self.pile.values())
        lines.append(f"The draw pile starts with {size} cards"
                     + (f", {_and(lethal)} among them." if lethal else "."))
        for name, held in self.zones.items():
            if sum(held.values()):
                shown = [_copies(n, self.title(c)) if c else f"{n} cards" for c, n in held.items() if n]
                lines.append(f"{self._zone(name).capitalize()} holds {_and(shown)}.")
        if self.removed:
            lines.append(f"{self.removed} card{'s' if self.removed != 1 else ''} "
                         f"{'are' if self.removed != 1 else 'is'} out of the game.")
        lines.append("The first player starts; play goes round the table in seat order.")
        if any(trigger.on == "game_start" for trigger in self.edition.triggers):
            # the counts above are the deal's; a rule for the start may change them at once
            lines.append("Before the first turn, the rules for the start of the game run (see "
                         "“Rules that run at moments of the game”), which may change the above.")
        return lines


#: setup step kind -> its wording (keywords: a step may share a word with a card)
_STEP_WORDING = dict(set_aside=SetupRun._set_aside, deal=SetupRun._deal, put_back=SetupRun._put_back,
                     shuffle=SetupRun._shuffle, remove=SetupRun._remove, place=SetupRun._place,
                     remove_random=SetupRun._remove_random)


def _setup_blocks(edition: Edition, players: int) -> list:
    run = SetupRun(edition, players)
    problems, _pile = dry_run(edition, players)
    blocks = [Heading(2, f"Setup for {players} players"), Items(tuple(run.lines)), Para(" ".join(run.summary()))]
    if problems:  # the validator reports these too; a sheet should not hide them
        blocks.append(Items(tuple(f"Problem: {p.message}" for p in problems)))
    return blocks


def _deck_blocks(edition: Edition, players: int) -> list:
    deck = edition.deck_for(players)
    rows = tuple((edition.cards[c].title, str(n)) for c, n in deck.items())
    rows += (("Total", str(sum(deck.values()))),)
    blocks = [Heading(2, f"Deck for {players} players")]
    marks = _marks_sentence(edition, players)
    if marks:
        blocks.append(Para(marks))
    return blocks + [Table(("Card", "Copies"), rows)]


def _marks_sentence(edition: Edition, players: int) -> str | None:
    """Which printed marks pick the cards at this player count, for a box whose deck is
    counted by mark (`marks:`); the compiled edition keeps only the counts, so the files
    that define the deck are read."""
    marks, by_mark = None, set()
    for data in (_file_data(path) for path in getattr(edition, "sources", ()) or (edition.origin.path,)):
        if data and isinstance(data.get("marks"), dict):
            marks = data["marks"]
        if data and isinstance(data.get("deck"), dict):
            by_mark |= {card for card, count in data["deck"].items() if isinstance(count, dict)
                        and count and all(isinstance(key, str) and key in _all_marks(marks) for key in count)}
    if not marks:
        return None
    used = next((list(names) for span, names in marks.items() if _in_span(str(span), players)), None)
    if used is None:
        return None
    unmarked = [_plural(edition.cards[c].title) for c in edition.deck_for(players)
                if c not in by_mark and c in edition.cards]
    said = (f"This box picks its cards by the mark printed on each: with {players} players, use "
            f"{'' if len(used) > 1 else 'only '}the cards marked "
            f"{_and([f'“{words(str(m))}”' for m in used])}")
    if unmarked:
        said += f"; {_and(unmarked)} carry no mark and are used at every count"
    return said + "."


def _all_marks(marks) -> set:
    return {str(m) for names in (marks or {}).values() for m in names}


def _in_span(span: str, players: int) -> bool:
    """Whether a player range written "2-3" (or "4") holds ``players``."""
    lo, _, hi = span.partition("-")
    try:
        return int(lo) <= players <= int(hi or lo)
    except ValueError:
        return False


# -- cards and combos ------------------------------------------------------------------
_WHEN = dict(own_turn="Played on your own turn.",
             any_time="Played on your turn, or at any moment in answer to another card or combo.",
             reaction="Played only in answer to another card or combo.",
             never="Never played on its own.")
#: who may play a card other than the players still in (``who:``)
_WHO = dict(out="Only a player who is out may play it (in answer to a card: they take no turns).",
            anyone="A player who is out may play it too, in answer to a card (they take no turns).")


class _Context:
    """What the card and combo entries share: titles, the cancelling cards, who names whom."""

    def __init__(self, edition: Edition, players: int | None = None):
        self.edition = edition
        self.params = _params(edition)
        in_deck = edition.deck_for(players) if players else \
            [c for c, ranges in edition.deck.items() if any(n for _lo, _hi, n in ranges)]
        # (a card that answers moments only cancels those, never a card or combo)
        self.cancellers = [c for cid, c in edition.cards.items() if cid in in_deck
                           and c.effect is not None and _calls(c.effect, P.NAMES.cancel)
                           and (not c.answers or any(key[0] == "play" for key in c.answers))]
        self.named_by: dict[str, list[str]] = {}  # card id -> titles of records naming it
        records = [(card.title, card) for card in (edition.cards[c] for c in in_deck if c in edition.cards)]
        records += [(combo.title, combo) for combo in edition.combos]
        records += [(f"the action “{action.title}”", action) for action in edition.actions]
        for kind, rules in (("rule watched all the time", edition.checks),
                            ("rule for a moment of the game", edition.triggers),
                            ("limit on plays", edition.restrictions)):
            records += [(f"the {kind} “{record_name(rule)}”", rule) for rule in rules]
        for label, record in records:
            for node in s.walk(tuple(_record_trees(record))):
                if isinstance(node, s.StrLit) and node.value in edition.cards:
                    names = self.named_by.setdefault(node.value, [])
                    if label not in names and node.value != record.id:
                        names.append(label)

    def program(self, tree, record=None, this: str | None = None, me: str | None = None) -> str:
        names = choice_names(record.choose) if record is not None else None
        return " ".join(describe_program(tree, self.params, cards=self.edition.cards,
                                         names=names, this=this, me=me))

    def expression(self, tree, record=None, this: str | None = None, me: str | None = None) -> str:
        names = choice_names(record.choose) if record is not None else None
        return describe_expression(tree, self.params, cards=self.edition.cards, names=names,
                                   this=this, me=me)

    def nope(self, nopeable: bool, card_id: str | None = None) -> str:
        """Which cards can cancel a card (``card_id``) or a combo (None).

        A canceller with a condition (`requires`) is named only where the
        condition may hold for this play: a condition on the title of the play
        answered is settled for a card here, and anything else is said as a
        condition."""
        if not nopeable:
            return "Nothing can cancel it."
        always, sometimes = [], []
        for canceller in self.cancellers:
            holds = True if canceller.requires is None else _answering_holds(canceller.requires, card_id)
            if holds is True:
                always.append(canceller.title)
            elif holds is None:
                sometimes.append(canceller.title)
        if not always and not sometimes:
            if self.cancellers:
                return "No card of this deck can cancel it."
            return "It could be cancelled, but this deck has no card that cancels."
        said = f"{_and(always)} can cancel it." if always else ""
        if sometimes:
            also = " also" if always else ""
            said += f" {_and(sometimes)} can{also} cancel it when {'its' if len(sometimes) == 1 else 'their'} " \
                    "own condition holds."
        return said.strip()

    def play_paras(self, record, this: str | None = None) -> list:
        """Conditions, choices and effect of something played (a card or a combo)."""
        paras = []
        if record.requires is not None:
            paras.append(Para(_sentence(self.expression(record.requires, record, this)), "Only if:"))
        if record.choose:
            names = choice_names(record.choose)
            chosen = [f"{names[name][0]}: {self.expression(tree, record, this)}"
                      for name, tree in record.choose]
            paras.append(Para(_sentence("; ".join(chosen)), "Chosen when played, before anyone answers:"))
        if record.effect is not None:
            paras.append(Para(self.program(record.effect, record, this), "In rules terms:"))
        if _answers_moments_only(record):  # what it answers is a moment, never a play
            paras = [Para(_about_the_moment(para.text), para.label) for para in paras]
        return paras


def _answers_moments_only(record) -> bool:
    """Whether a card answers moments (`answers:`) and never a card or combo played."""
    keys = getattr(record, "answers", ()) or ()
    return bool(keys) and all(key[0] != "play" for key in keys)


def _about_the_moment(text: str) -> str:
    """A moment answer's sentence: what it answers is the moment and its card."""
    for said, meant in (("the card or combo being answered", "the card of the moment answered"),
                        ("cancel the card, combo or moment this one answers", "cancel the moment it answers"),
                        ("the player whose play or moment is being answered", "the player the moment is about")):
        text = text.replace(said, meant).replace(said[0].upper() + said[1:], meant[0].upper() + meant[1:])
    return text


def record_name(record) -> str:
    """How a rule of the edition without a title is named on the sheet: its id in words,
    capitalised ("Full cat collection")."""
    return sentence(words(record.id))[:-1]


def _record_trees(record) -> list:
    """Every effect tree of a card, combo or edition-wide rule (a limit on plays has its
    `allows` besides), for the cards they name."""
    allows = getattr(record, "allows", None)
    return list(_trees(record)) + ([allows] if allows is not None else [])


def _answering_holds(tree, card_id: str | None) -> bool | None:
    """Whether a condition holds when its card answers a play of ``card_id`` alone:
    True or False where the condition tests only the title of the play answered
    (`title(answered()) == "some_id"`, with `and`, `or`, `not`), else None (it depends)."""
    if isinstance(tree, s.Not):
        inner = _answering_holds(tree.operand, card_id)
        return None if inner is None else not inner
    if isinstance(tree, s.BoolOp):
        found = [_answering_holds(operand, card_id) for operand in tree.operands]
        decisive = tree.op == "or"  # True decides an `or`, False an `and`
        if decisive in found:
            return decisive
        return None if None in found else not decisive
    if isinstance(tree, s.Compare) and tree.op in ("==", "!=") and card_id is not None:
        sides = (tree.left, tree.right)
        titles = [side for side in sides if _is_answered_title(side)]
        written = [side.value for side in sides if isinstance(side, s.StrLit)]
        if titles and written:
            return (written[0] == card_id) == (tree.op == "==")
    return None


def _is_answered_title(node) -> bool:
    return isinstance(node, s.Call) and node.name == "title" and len(node.args) == 1 \
        and isinstance(node.args[0], s.Call) and node.args[0].name == "answered"


def _calls(tree, name: str) -> bool:
    return any(isinstance(n, s.Call) and n.name == name for n in s.walk(tree))


#: what a restriction limits, in words, by the words of its `applies_to`
_LIMITS = {"plays": "a card, combo or action may be played",
           "spending": "an effect may spend a card",
           "taking": "an effect of another player may take a card out of a hand"}


def _limited(applies_to: tuple) -> str:
    """The start of a restriction's sentence: what may happen only if its test holds."""
    alone = {("plays",): "a card, combo or action may be played only if ",
             ("spending",): "an effect may spend a card (as the Defuse a kitten looks for) only if ",
             ("taking",): "an effect of another player may take a card out of a hand (a card picked, moved "
                          "or discarded from it, whoever picks it) only if "}.get(tuple(applies_to))
    if alone is not None:
        return alone
    return ", and ".join(_LIMITS[word] for word in _LIMITS if word in applies_to) + ", only if "


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text


def _card_ids_for(edition: Edition, players: int) -> list[str]:
    """The deck's cards, then cards the setup names that the deck does not hold."""
    ids = list(edition.deck_for(players))
    for step in edition.setup:
        ids += [c for c in step.cards if c not in ids and c in edition.cards]
    return ids


def _card_blocks(edition: Edition, players: int) -> list:
    ctx = _Context(edition, players)
    blocks = [Heading(2, "Cards")]
    for card_id in _card_ids_for(edition, players):
        card = edition.cards[card_id]
        blocks += [Heading(3, card.title), Quote(printed_text(edition, card))]
        facts = [_answers_fact(card) if card.answers else _WHEN.get(card.when, f"Played: {card.when}.")]
        if card.who != "in":  # players who are out take no turns: they play it in answer only
            facts.append(_WHO[card.who])
        if card.when != "never":
            facts.append(ctx.nope(card.nopeable, card_id))
        facts += _card_traits(edition, card)
        combos = [c.title for c in edition.combos if c.may_include(card)]
        if combos and not any(t for t in (card.effect, card.on_draw, card.instead_of_draw)):
            either = combos[0] if len(combos) == 1 else f"{', '.join(combos[:-1])} or {combos[-1]}"
            facts.append(f"You may play it in a combo: {either}.")
        if ctx.named_by.get(card_id):
            naming = ctx.named_by[card_id]
            facts.append(_sentence(f"{_and(naming)} {'refers' if len(naming) == 1 else 'refer'} to it by name"))
        blocks.append(Para(" ".join(facts), "Use:"))
        blocks += ctx.play_paras(card)
        if card.on_draw is not None:
            blocks.append(Para(ctx.program(card.on_draw, card), "When drawn:"))
        if card.instead_of_draw is not None:
            blocks.append(Para(ctx.program(card.instead_of_draw, card),
                               "Instead of each draw by the player it lies before:"))
    return blocks


def _card_traits(edition: Edition, card) -> list[str]:
    """The plain-data keys of a card, in words."""
    traits = []
    if card.stands_for is not None:
        titles, tag, excluded = card.stands_for
        tagged = sorted({c.title for c in edition.cards.values() if tag in c.tags})
        what = (_and([edition.cards[c].title for c in sorted(titles) if c in edition.cards])
                if titles is not None else f"any of {_and(tagged)}" if tag else "any card")
        if excluded:
            what += " except " + _and([edition.cards[c].title for c in sorted(excluded)
                                       if c in edition.cards])
        traits.append(f"Wild: it may stand in for {what}.")
    if card.returns_to:
        traits.append(f"It never goes to the discard pile: played, spent or discarded, it goes back "
                      f"to the {words(card.returns_to)}.")
    if card.back_distinct:
        traits.append("Its back differs from the others, so anyone can spot it in a hand.")
    if not card.in_combos:
        traits.append("It never joins a combo.")
    if card.decoy:
        traits.append(f"While it lies before a player, random picks from their hand come from "
                      f"the {words(card.decoy)} instead, while it holds cards.")
    if card.blinds:
        traits.append("While it lies before a player, that player plays blind.")
    if (card.raw or {}).get("does_nothing") is True:
        traits.append("It does nothing: it only takes up room in a hand.")
    return traits


#: how the cards of a combo relate, as the rulesheet says it
_COMBO_MATCH = dict(same_title="all with the same title", different_titles="all with different titles",
                    any="alike or not")


def _combo_blocks(edition: Edition) -> list:
    if not edition.combos:
        return []
    ctx = _Context(edition)
    blocks = [Heading(2, "Combos")]
    this = "the cards of the combo"
    for combo in edition.combos:
        match = _COMBO_MATCH[combo.match]
        tag = ""
        if combo.tag:  # the cards the tag stands for, by title
            kinds = sorted({c.title for c in edition.cards.values() if combo.tag in c.tags})
            tag = f", every one of them one of {_and(kinds)}" if kinds else ""
        if combo.titles:  # the only titles it takes
            named = sorted(edition.cards[t].title for t in combo.titles if t in edition.cards)
            tag += f", made only of {_and(named)}" if combo.match == "same_title" or \
                len(combo.titles) != combo.size else ": " + _and([f"one {name}" for name in named])
        together = f"{combo.size} cards played together, {match}{tag}" if combo.slots is None else \
            f"{combo.size} cards played together: {slot_words(edition, combo)}{tag}"
        blocks += [Heading(3, combo.title), Quote(printed_text(edition, combo)),
                   Para(f"{together}. {ctx.nope(combo.nopeable)}", "Use:")]
        blocks += ctx.play_paras(combo, this)
    return blocks


# -- rules and parameters ----------------------------------------------------------------
_WIN = dict(last_standing="The last player still in the game wins.",
            last_team_standing="The last team with a player still in the game wins: every member of "
                               "that team wins, including partners who are out.")


def _rule_blocks(edition: Edition) -> list:
    ctx = _Context(edition)
    blocks = [Heading(2, "The rules in numbers"), Items(tuple(switches(edition))),
              Para(ctx.program(edition.turn_draw), "Ending a turn by drawing:"),
              Para(_WIN.get(edition.win, "See “Scoring” below.") +
                   (" In a team game their whole team wins with them, partners who are out included."
                    if edition.teams and edition.win == "last_standing" else "") +
                   (" Partners share their lives: when one of them is out, the whole team is out."
                    if edition.teams and edition.teams_together else ""), "Winning:")]
    if edition.zones:
        zones = [f"the {words(name)} ({'face up' if spec.get('public', True) else 'face down'}"
                 f"{', one for each player' if spec.get('per_player') else ''})"
                 for name, spec in edition.zones.items()]
        blocks.append(Para(_sentence(_and(zones)), "Places on the table besides the piles:"))
    blocks += _phase_blocks(edition, ctx)
    if edition.checks:
        blocks.append(Heading(3, "Rules watched all the time, for each player after every play and draw"))
        for check in edition.checks:
            effect = ctx.program(check.effect)
            blocks += [Heading(4, record_name(check)), Quote(check.text),
                       Para(_sentence(f"when {ctx.expression(check.condition)}: "
                                      f"{effect[:1].lower()}{effect[1:]}"), "In rules terms:")]
    return blocks


#: when each trigger moment comes, as a rulesheet says it
_MOMENT = dict(game_start="At the start of the game", turn_start="At the start of each turn",
               round_start="At the start of each round (once every player still in has had a turn, as play passes on)",
               turn_end="At the end of each turn (each of several owed turns counts)",
               player_out="When a player goes out", player_back="When a player comes back",
               pile_empty="When the draw pile runs out", card_enters="When a card enters {zone}",
               card_leaves="When a card leaves {zone}", game_end="When the game is decided",
               card_drawn="When a player draws a card",
               card_spent="When a player spends a card (a Defuse a kitten uses, say)")
#: the same moments met before they happen (`at: before`)
_BEFORE = dict(player_out="Just before a player goes out (by any card or rule)",
               card_drawn="When a player draws a card, before it takes effect")


#: what cancel() does in a trigger met before its moment
_STOPPED = dict(player_out="that player does not go out", card_drawn="the card drawn does not take effect")
#: who `me` is in a trigger, when it is not the player whose turn it is ("you")
_MOMENT_ME = dict(player_out="that player", player_back="that player", game_start="the first player",
                  card_drawn="that player", card_spent="that player")


def _how_often(limit) -> str:
    """A limit's `per_turn` / `per_game` as what its player must not yet have played
    ("fewer than 1 of them this turn"), or "" for none."""
    parts = [f"fewer than {n} of them {when}" for n, when in ((limit.per_turn, "this turn"),
                                                          (limit.per_game, "this game")) if n is not None]
    return " and ".join(parts)


def _play_titles(edition, ids) -> list[str]:
    """The titles of the cards, combos and free actions named by id."""
    combos = {combo.id: combo for combo in edition.combos}
    actions = {action.id: action for action in edition.actions}
    found = []
    for rule_id in ids:
        record = edition.cards.get(rule_id) or combos.get(rule_id) or actions.get(rule_id)
        found.append(f"a {record.title}" if record is not None else rule_id)
    return found


def _answers_fact(card) -> str:
    """When a card that answers moments (`answers:`) may be played, in a sentence."""
    moments = []
    for on, zone, at in card.answers:
        if on == "play":
            moments.append("another card or combo is played")
        elif at == "before":
            moments.append({"player_out": "a player is about to go out",
                            "card_drawn": "a player draws a card, before it takes effect"}[on])
        else:
            moments.append({"turn_start": "a turn starts", "round_start": "a round starts", "turn_end": "a turn ends",
                            "player_out": "a player goes out", "player_back": "a player comes back",
                            "pile_empty": "the draw pile runs out", "card_drawn": "a player draws a card",
                            "card_spent": "a player spends a card",
                            "card_enters": f"a card enters {_zone_words(None, zone)}",
                            "card_leaves": f"a card leaves {_zone_words(None, zone)}"}[on])
    own = " Played on your turn too." if card.when == "any_time" else ""
    return f"Played only in answer, when {_or(moments)}.{own}"


def _or(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _zone_words(edition: Edition, zone: str | None) -> str:
    """The zone a card moment watches, in words ("hand" is any player's hand)."""
    if zone in ("hand", "removed"):
        return "a player's hand" if zone == "hand" else "the cards out of the game"
    if edition is not None and edition.zones.get(zone or "", {}).get("per_player"):
        return f"a player's {words(zone or '')} zone"
    return f"the {words(zone or 'zone')}"


#: how the rulesheet says who may see a counter declared with `visible:`
_COUNTER_SEEN = {"everyone": "", "owner": " (each player's own, secret from the others)",
                 "nobody": " (kept secret from every player)"}


def _phase_blocks(edition: Edition, ctx) -> list:
    """Scores, counters and triggers, in plain words."""
    blocks = []
    scoring = edition.scoring
    if scoring is not None:  # worked out for each player: `me` is "they"
        parts = [f"each player scores {ctx.expression(scoring.score, me='they')}"
                 if scoring.score is not None else "every player scores 0"]
        if scoring.ends_when is not None:
            parts.append(f"the game ends as soon as {ctx.expression(scoring.ends_when)}, or when one "
                         f"{'team' if edition.teams else 'player'} is left")
        parts.append(f"the {'team' if edition.teams else 'player'} still in with the highest score wins"
                     + (" (a team scores its members' points together)" if edition.teams else ""))
        if scoring.tie_break is not None:
            tie = ctx.expression(scoring.tie_break, me="they")
            parts.append(f"a tie goes to the highest {tie[4:] if tie.startswith('the ') else tie}")
        parts.append("players still level share the win")
        blocks.append(Para(_sentence("; ".join(parts)), "Scoring:"))
    if edition.counters:
        kept = [f"“{words(name)}”" + (f" ({spec['text'].rstrip('.')})" if spec.get("text") else "")
                + f", starting at {spec.get('start', 0)}" + _COUNTER_SEEN[spec.get("visible", "everyone")]
                for name, spec in edition.counters.items()]
        public = all(spec.get("visible", "everyone") == "everyone" for spec in edition.counters.values())
        blocks.append(Para(_sentence(f"every player keeps a {'public ' if public else ''}count of " + _and(kept)),
                           "Counters:"))
    if edition.restrictions:
        inside = [verb for word, verb in (("spending", "spend"), ("taking", "take from a hand"))
                  if any(word in limit.applies_to for limit in edition.restrictions)]
        blocks.append(Heading(3, "Limits on every play" + (f" and on what effects {' and '.join(inside)}"
                                                            if inside else "")))
        for limit in edition.restrictions:
            this = "the cards played" if limit.applies_to == ("plays",) else "the card"
            me = "the player taking" if limit.applies_to == ("taking",) else None
            said = [ctx.expression(limit.allows, this=this, me=me)] if limit.allows is not None else []
            what, often = _limited(limit.applies_to), _how_often(limit)
            if limit.rules is not None:
                what = what.replace("a card, combo or action", _or(_play_titles(edition, limit.rules)))
            if often:
                said.append(f"its player has played {often}")
            blocks += [Heading(4, record_name(limit)), Quote(limit.text),
                       Para(_sentence(what + " and ".join(said)), "In rules terms:")]
    if edition.actions:
        blocks.append(Heading(3, "Actions you may take on your turn besides playing cards"))
        for action in edition.actions:
            often = f"at most {action.per_turn} time{'s' if action.per_turn > 1 else ''} a turn" + \
                (f" and {action.per_game} in a game" if action.per_game else "")
            effect = ctx.program(action.effect, action)
            blocks += [Heading(4, action.title), Quote(action.text),
                       Para(_sentence(f"{often}" + (f", if {ctx.expression(action.requires)}"
                                                     if action.requires is not None else "")), "When:"),
                       Para(effect, "In rules terms:")]
    if edition.triggers:
        blocks.append(Heading(3, "Rules that run at moments of the game"))
        for trigger in edition.triggers:
            when = (_BEFORE if trigger.at == "before" else _MOMENT)[trigger.on].format(
                zone=_zone_words(edition, trigger.zone))
            me, this = _MOMENT_ME.get(trigger.on), "that card" if trigger.zone or trigger.on == "card_drawn" else None
            if trigger.condition is not None:
                when += f", if {ctx.expression(trigger.condition, this=this, me=me)}"
            effect = ctx.program(trigger.effect, this=this, me=me)
            if trigger.at == "before":  # cancel() here stops the moment itself
                effect = effect.replace("cancel the card, combo or moment this one answers",
                                        _STOPPED[trigger.on]).replace(
                    "Cancel the card, combo or moment this one answers", _STOPPED[trigger.on].capitalize())
            blocks += [Heading(4, record_name(trigger)), Quote(trigger.text),
                       Para(_sentence(f"{when}: {effect[:1].lower()}{effect[1:]}"), "In rules terms:")]
    return blocks


def _value(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


# -- rendering ---------------------------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _md(text: str) -> str:
    if isinstance(text, Code):
        return f"`{text}`"
    return _MD_SPECIAL.sub(r"\\\1", text)


def render_markdown(blocks: list) -> str:
    """The blocks as Markdown."""
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + _md(block.text))
        elif isinstance(block, Para):
            out.append((f"**{_md(block.label)}** " if block.label else "") + _md(block.text))
        elif isinstance(block, Quote):
            out.append("> " + _md(" ".join(block.text.split())))
        elif isinstance(block, Items):
            out.append("\n".join(f"- {_md(item)}" for item in block.items))
        elif isinstance(block, Table):
            lines = ["| " + " | ".join(_md(h) for h in block.header) + " |",
                     "|" + "---|" * len(block.header)]
            lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in block.rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


_CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;
line-height:1.45;color:#111}
h1{font-size:1.8em;margin-bottom:.2em}h2{border-bottom:2px solid #444;padding-bottom:.1em;margin-top:1.6em}
h3{margin:1em 0 .3em}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:left}
blockquote{font-style:italic;margin:.4em 1.5em;color:#333}
section.entry{padding:.1em 0}
@page{size:A4;margin:15mm 14mm}
@media print{
 body{max-width:none;margin:0;padding:0;font-size:10pt;line-height:1.35}
 h1,h2,h3{break-after:avoid;page-break-after:avoid}
 section.entry,table,li{break-inside:avoid;page-break-inside:avoid}
 a{color:inherit;text-decoration:none}
}
""".replace("\n", "")


def _h(text: str) -> str:
    escaped = html.escape(text)
    return f"<code>{escaped}</code>" if isinstance(text, Code) else escaped


def render_html(blocks: list, title: str) -> str:
    """The blocks as one self-contained HTML page that prints on A4: each card, combo and
    variant is a section kept whole on one page."""
    body = []
    open_section = False
    for block in blocks:
        if isinstance(block, Heading):
            if open_section:
                body.append("</section>")
                open_section = False
            if block.level == 3:
                body.append('<section class="entry">')
                open_section = True
            body.append(f"<h{block.level}>{_h(block.text)}</h{block.level}>")
        elif isinstance(block, Para):
            label = f"<strong>{_h(block.label)}</strong> " if block.label else ""
            body.append(f"<p>{label}{_h(block.text)}</p>")
        elif isinstance(block, Quote):
            body.append(f"<blockquote>{_h(block.text)}</blockquote>")
        elif isinstance(block, Items):
            body.append("<ul>\n" + "\n".join(f"<li>{_h(i)}</li>" for i in block.items) + "\n</ul>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{_h(h)}</th>" for h in block.header)
            rows = "\n".join("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>"
                             for row in block.rows)
            body.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>")
    if open_section:
        body.append("</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def render_json(blocks: list, title: str) -> str:
    """The blocks as one JSON document: ``{"title", "blocks": [{"type", ...}]}``."""
    import json
    from dataclasses import asdict

    out = []
    for block in blocks:
        item = {"type": type(block).__name__.lower(), **asdict(block)}
        out.append(item)
    return json.dumps({"title": title, "blocks": out}, indent=2, default=str) + "\n"
