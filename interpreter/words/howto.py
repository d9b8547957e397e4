"""The parts of a rulesheet that teach: how to play, the switches, what changed.

Everything here is worked out from the compiled edition and written for a
person who has never played: card titles, never ids; what a rule does, never
its name; cards a tag stands for, by title. :mod:`rulesheet` lays the
sentences out as Markdown or HTML.
"""

from __future__ import annotations

from ..lang import primitives as P
from ..lang import syntax as s
from ..rules.model import Edition, place_titles
from ..rules.textcheck import effect_trees
from .describe import describe_program, sentence, words

#: the engine's switches, as a player reads them: rule -> {value: sentence}
RULE_SENTENCES = {
    "attacks_stack": {
        True: "Attacks add up: if you are under attack and play an attack, the next player "
              "takes the turns you still owe as well as the new ones.",
        False: "Attacks do not add up: if you are under attack and play an attack, the next "
               "player takes only the new turns; the turns you still owed are gone.",
    },
    "may_nope_own_action": {
        True: "You may answer your own card or combo, too.",
        False: "You may not answer your own card or combo (only an answer aimed at it).",
    },
}

_WHEN_PLAYED = {"own_turn": "on your own turn", "any_time": "at any moment",
                "reaction": "only in answer to another card", "never": "never on its own"}


def _and(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else ""


def plural(title: str) -> str:
    """"Exploding Kittens", "copies of See the Future" (titles are names, not words)."""
    if len(title.split()) <= 2 and title[-1:].isalpha() and title[-1] not in "sxy":
        return f"{title}s"
    return f"copies of {title}"


def _deck_ids(edition: Edition, players: int) -> list[str]:
    return [c for c, n in edition.deck_for(players).items() if n]


def _params(edition: Edition) -> dict:
    return {**edition.rules, **edition.params}


def rule_sentence(name: str, value) -> str:
    """One engine rule or parameter, in words."""
    if name in RULE_SENTENCES and value in RULE_SENTENCES[name]:
        return RULE_SENTENCES[name][value]
    if isinstance(value, bool):
        return f"{sentence(words(name))[:-1]}: {'yes' if value else 'no'}."
    return f"{sentence(words(name))[:-1]}: {value}."


# -- how to play -------------------------------------------------------------------
def how_to_play(edition: Edition, players: int) -> list[tuple[str, str]]:
    """The rules of play as (lead-in, paragraph) pairs, from the edition's data."""
    cards, params = edition.cards, _params(edition)
    in_deck = _deck_ids(edition, players)
    titles = lambda ids: _and([cards[c].title for c in ids if c in cards])  # noqa: E731
    out = []
    lethal = [c for c in in_deck if cards[c].lethal]
    goal = "Do not be knocked out."
    if lethal:
        hidden = _and([plural(cards[c].title) for c in lethal])
        goal = (f"The draw pile hides {hidden}: draw one and you are out, unless you can save "
                f"yourself (see {titles(lethal)} under Cards).")
    out.append(("The goal:", f"{goal} {_win(edition)}"))
    draw = " ".join(describe_program(edition.turn_draw, params, cards=cards))
    ending = ("Then draw the top card of the draw pile: that ends your turn." if draw.startswith(
        "Draw a card. End your current turn") else f"Then end your turn this way: {draw}")
    out.append(("Your turn:", "Play as many cards as you like, one at a time, or none at all. "
                f"{ending} Play then passes to the next player."))
    out.append(("Turns you owe:", "Some cards make a player take extra turns. Whoever owes "
                "several turns takes them one after another, and each draw ends one of them; a "
                "card that ends a turn without drawing also ends only one, unless it says "
                "otherwise. " + RULE_SENTENCES["attacks_stack"][bool(params.get("attacks_stack", True))]))
    answering = [c for c in in_deck if cards[c].when in ("reaction", "any_time")]
    answers = [c for c in answering if not cards[c].answers or any(key[0] == "play" for key in cards[c].answers)]
    moments = [c for c in answering if c not in answers]  # they answer moments of the game only
    if answers:
        own = RULE_SENTENCES["may_nope_own_action"][bool(params.get("may_nope_own_action", False))]
        closed = [c for c in in_deck if cards[c].when not in ("never",) and not cards[c].nopeable]
        text = (f"Whenever someone plays a card or a combo, every other player may answer it at "
                f"once with {titles(answers)}, even when it is not their turn; an answer can itself "
                f"be answered, and so on, before the card takes effect. {own}")
        if closed:
            text += f" Nobody can answer {titles(closed)}."
        if moments:
            text += (f" {titles(moments)} {'answers' if len(moments) == 1 else 'answer'} moments of the "
                     "game instead (a card drawn, a player going out, ...), as the Cards section says.")
        out.append(("Answering:", text))
    if edition.combos:
        listed = [f"{combo.title} ({combo.size} cards, "
                  f"{_MATCH_WORDS[combo.match] if combo.slots is None else slot_words(edition, combo)}"
                  f"{_of_titles(edition, combo)})" for combo in edition.combos]
        out.append(("Combos:", "Instead of a single card you may play several together as one "
                    f"play: {_and(listed)}. The cards' own effects do not happen then; the combo's "
                    "does (see Combos below)."))
    for check in edition.checks:
        out.append(("Always:", " ".join(check.text.split())))
    if edition.teams:
        out.append(("Teams:", _TEAMS_DEALT.get(edition.teams_dealt, _TEAMS_DEALT["in_turn"])))
    out.append(("The end:", f"{_out_players(edition)} {_win(edition)}"))
    return out


def _out_players(edition: Edition) -> str:
    """What a player who is out may still do: no turns, no plays but the cards a `who:`
    gives them (in answer only), and a choice an effect gives them (`by=`)."""
    in_deck = {card_id for card_id, ranges in edition.deck.items() if any(n for _lo, _hi, n in ranges)}
    still = [card.title for card_id, card in edition.cards.items()
             if card_id in in_deck and getattr(card, "who", "in") != "in"]
    said = ("A player who is out takes no more turns and plays no more cards, not even in answer."
            if not still else "A player who is out takes no more turns; they may still answer a "
            f"card with {_and(still)}, and play nothing else.")
    trees = [tree for record in _records(edition) for tree in effect_trees(record)]
    asks_others = any(isinstance(node, s.Call) and node.name in P.PRIMITIVES
                      and P.PRIMITIVES[node.name].kind == P.CHOICE
                      and any(k.name == "by" for k in node.kwargs)
                      for node in s.walk(tuple(trees)))
    if asks_others:
        said += " A card or rule that asks someone else to choose may still ask a player who is out."
    return said


def _records(edition: Edition) -> list:
    """Everything of the edition that holds effects: cards, combos and edition-wide rules."""
    return [*edition.cards.values(), *edition.combos, *edition.checks, *edition.triggers,
            *edition.actions, *edition.restrictions]


#: how players join teams (`teams: {dealt: ...}`), in words
_TEAMS_DEALT = {"in_turn": "Players are in teams; partners sit apart and win together.",
                "random": "Players are dealt into teams at random before the game, for everyone to "
                          "see; partners win together.",
                "secret": "Players are dealt into teams at random and in secret before the game: "
                          "each knows only their own team, not who their partners are; partners "
                          "win together."}


def _win(edition: Edition) -> str:
    if edition.scoring is not None:
        return "The game is won on points (see Scoring)."
    if edition.win == "last_team_standing":
        return ("The last team with a player still in the game wins, partners who are out "
                "included.")
    return "The last player still in the game wins."


def switches(edition: Edition) -> list[str]:
    """The edition's engine rules and numbers, one sentence each."""
    lines = [rule_sentence(name, value) for name, value in edition.rules.items()]
    lines += [rule_sentence(name, value) for name, value in edition.params.items()]
    return lines


# -- changes in sentences ----------------------------------------------------------------
def change_sentences(changes: list, before: Edition, after: Edition) -> list[str]:
    """What a house rule, expansion or variant changes, a sentence per change."""
    out = []
    for change in changes:
        text = _change_sentence(change, before, after)
        if text and text not in out:
            out.append(text)
    return out


def _title(card_id: str, before: Edition, after: Edition) -> str:
    card = after.cards.get(card_id) or before.cards.get(card_id)
    return card.title if card is not None else words(card_id)


def _quoted(text) -> str:
    """A designer's own words in a sentence of the sheet, in quotes, as their card texts
    are set apart: “Once per turn, ...”."""
    return f"“{' '.join(str(text).split())}”"


def _said(value) -> str:
    """A parameter's value as a player reads it: a switch is yes or no."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _count(value) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{n} with {players.replace('-', ' to ')} players" for players, n in value.items())
    return str(value)


def _change_sentence(change, before: Edition, after: Edition) -> str | None:
    sign, parts = change.sign, change.path.split(".")
    head = parts[0]
    if change.path == "players":
        lo, hi = change.after["min"], change.after["max"]
        return f"It is for {lo} to {hi} players." if lo != hi else f"It is for {lo} players."
    if head == "deck":
        title = _title(parts[1], before, after)
        if sign == "+":
            return f"{title} joins the deck: {_count(change.after)}."
        if sign == "-":
            return f"{title} is taken out of the deck."
        return f"{title}: {_count(change.after)} in the deck instead of {_count(change.before)}."
    if head == "rules":
        return rule_sentence(parts[1], change.after) if sign != "-" else None
    if head == "params":
        if sign == "-":
            return None
        old = "" if sign == "+" else f" instead of {_said(change.before)}"
        return f"{sentence(words(parts[1]))[:-1]}: {_said(change.after)}{old}."
    if head == "combos":
        combo = next((c for c in after.combos if c.id == parts[1]), None) or \
            next((c for c in before.combos if c.id == parts[1]), None)
        title = combo.title if combo else words(parts[1])
        if len(parts) > 2:
            return f"The combo {title} works differently (see Combos)."
        return f"The combo {title} can be played." if sign == "+" else f"The combo {title} is not played."
    if head.startswith("setup"):
        return "The setup is different (see Setup)."
    if head == "turn":
        return "Ending a turn works differently (see How to play)."
    if head in ("win", "teams"):
        return _win(after) if head == "win" else "Players play in teams." if after.teams_dealt == "in_turn" \
            else _TEAMS_DEALT[after.teams_dealt]
    if head in _RECORDS:  # triggers, free actions and limits on plays: their own words
        return _record_change(head, parts[1], change, after)
    if head == "counters":
        hidden = any(spec.get("visible", "everyone") != "everyone" for spec in after.counters.values())
        return f"Every player keeps {'counts, some of them secret' if hidden else 'public counts'} (see Counters)."
    if head == "checks":
        check = next((c for c in after.checks if c.id == parts[1]), None)
        if sign == "+" and check is not None:
            return f"A new rule: {_quoted(check.text)}"
        if sign == "-":
            return f"This rule no longer applies: {_quoted(change.before)}"
        return "A rule that is always watched works differently (see How to play)."
    if head == "cards":
        return _card_change(parts, change, before, after)
    return None


def _card_change(parts, change, before: Edition, after: Edition) -> str | None:
    title = _title(parts[1], before, after)
    if len(parts) == 2:
        return f"A new card: {title}." if change.sign == "+" else None
    key = parts[2]
    if key == "title":
        return f"{change.before} is called {change.after} here."
    if key == "text":
        return f"{title} now reads: “{' '.join(str(change.after).split())}”"
    if key == "nopeable":
        return f"{title} can be answered." if change.after is not False else f"Nobody can answer {title}."
    if key == "when":
        return f"{title} is played {_WHEN_PLAYED.get(change.after, 'differently')}."
    return f"{title} works differently (see its entry under Cards)."


#: edition-wide records whose changes a sheet words by their own text: part -> (the
#: record's attribute on the edition, what a new one is called)
_RECORDS = {"triggers": ("triggers", "A new rule for a moment of the game"),
            "actions": ("actions", "A new action on your turn"),
            "restrictions": ("restrictions", "A new limit on every play")}


def _record_change(head: str, record_id: str, change, after: Edition) -> str:
    attribute, new = _RECORDS[head]
    record = next((r for r in getattr(after, attribute) if r.id == record_id), None)
    if change.sign == "+" and record is not None:
        title = f"{record.title}: " if head == "actions" else ""
        if head == "restrictions":
            new = _new_limit(record)
        return f"{new}: {title}{_quoted(record.text)}"
    if change.sign == "-":
        return f"This rule no longer applies: {_quoted(change.before)}"
    return f"{new.replace('A new', 'A', 1)} works differently (see How to play)."


def _new_limit(record) -> str:
    """What a new restriction is called: on what it limits (plays, spending, taking), and
    on every play or some of them."""
    kinds = [word for word in ("plays", "spending", "taking") if word in record.applies_to]
    some = record.rules is not None
    named = {"plays": "some plays" if some else "every play", "spending": "what effects spend",
             "taking": "taking cards from a hand"}
    return "A new limit on " + " and ".join(named[word] for word in kinds)


def variant_sections(edition: Edition) -> list[tuple[str, str, list[str]]]:
    """Each variant of ``edition``: its name in words, its description, its changes."""
    from .resolved import diff

    out = []
    for name, variant in edition.variants.items():
        changes = change_sentences(diff(edition, variant), edition, variant)
        out.append((sentence(words(name))[:-1], " ".join(variant.variant_description.split()), changes))
    return out


#: how the cards of a combo relate, as the how-to says it
_MATCH_WORDS = dict(same_title="all alike", different_titles="all different", any="alike or not")


def slot_words(edition, combo) -> str:
    """What the places of a combo with `slots:` take, in words: "a Favor and any cat
    card", with "no title twice" when two places could take one title and they may not."""
    def title(card_id: str) -> str:
        return edition.cards[card_id].title if card_id in edition.cards else words(card_id)

    fits = place_titles(combo, edition.cards)  # the titles each place may take, tags worked out

    def place(index: int, titles, tag) -> str:
        if tag is None and titles is not None:
            return " or ".join(_a(title(t)) for t in sorted(titles, key=title))
        named = [title(t) for t in edition.cards if t in fits[index]]  # a tag said by its titles
        if not named:
            return "a card this deck does not have"
        return _a(named[0]) if len(named) == 1 else "any one of " + _or_list(named)
    text = _and([place(index, titles, tag) for index, (titles, tag) in enumerate(combo.slots)])
    if combo.match == "different_titles" and _may_share(fits):
        text += ", no title twice"
    return text


def _or_list(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _a(title: str) -> str:
    """A title after "a" or "an" ("an Attack", "a Favor")."""
    return ("an " if title[:1].lower() in "aeiou" else "a ") + title


def _may_share(places) -> bool:
    """Whether two places could take cards of one title (their titles, engine/slots.py)."""
    return any(titles & other for n, titles in enumerate(places) for other in places[n + 1:])


def _of_titles(edition, combo) -> str:
    """The titles a combo names (`titles:`), as the how-to lists them: ": Attack and Cattermelon"."""
    if not combo.titles:
        return ""
    return ": " + _and(sorted(edition.cards[t].title for t in combo.titles if t in edition.cards))
