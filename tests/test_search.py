"""The search player (ISMCTS): it sees only its seat's view, searches every kind of
decision of every edition, and finds the moves that matter."""

from __future__ import annotations

import random

import pytest

from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_players
from kittens.interpreter.engine.search import RACE_START, ISMCTSBot, pick, race
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.engine.views import SearchView, View
from kittens.interpreter.rules.catalog import catalog, shipped_editions
from kittens.interpreter.rules.load import load_edition

ORIGINAL = load_edition("original")


def _positions(game, seed: int, count: int, record: bool = False):
    """Up to ``count`` states of a random game at decisions with more than one option,
    each with the deciding seat (``record``: a game that records its events, as kittens
    play does)."""
    rng = random.Random(seed)
    state = game.new_state(seed, record=record)
    found = []
    while not state.is_terminal() and len(found) < count:
        decision = state.decision()
        if len(decision.options) > 1 and rng.random() < 0.3:
            found.append((state.clone(), decision.seat))
        state.apply_action(rng.choice(decision.options))
    return found


def _hidden(state, seat):
    """What ``seat`` cannot see: every card at a place it does not know."""
    bit = 1 << seat
    return [(zone.name, place, inst.id) for zone in state.table.zones()
            for place, inst in enumerate(zone.cards) if not inst.known & bit and not inst.face_up]


def _decide(bot_seed: int, state, seat: int, cls=ISMCTSBot, **settings):
    bot = cls(bot_seed, seat, iterations=6, **settings)
    bot.start(state.game, seat)
    bot.real = state  # only a cheat reads it (a view has no way to the real game)
    return bot.choose(SearchView(state, seat), state.decision())


class Peeking(ISMCTSBot):
    """A player that cheats: it searches copies of the real game instead of dealt worlds
    (handed the real game by the test: no view leads to it)."""

    def choose(self, view, decision):
        real = self.real

        class Handle(SearchView):
            __slots__ = ()

            def resample(self, rng, *, record=None):
                world = real.clone()
                world.table.rng.seed(rng.getrandbits(64))
                return world

        return super().choose(Handle(real, view.seat), decision)


@pytest.mark.parametrize("name, players", [("original", 4), ("imploding", 4), ("good_vs_evil", 3),
                                           ("party", 6), ("streaking", 4), ("barking", 4)])
def test_two_games_that_look_alike_to_the_seat_get_the_same_decision(name, players):
    game = Game(load_edition(name), players)
    compared = 0
    for state, seat in _positions(game, 7, 6):
        other = state.resample_from_view(seat, random.Random(123))  # same view, other hidden cards
        assert other.view(seat).to_dict() == state.view(seat).to_dict()
        if _hidden(other, seat) == _hidden(state, seat):
            continue
        for rollout in ("heuristic", "random"):
            assert _decide(5, state, seat, rollout=rollout) == _decide(5, other, seat, rollout=rollout)
        # multiple-observer: every seat's tree is built from the same dealt worlds alike
        assert _decide(5, state, seat, search="multi") == _decide(5, other, seat, search="multi")
        # the paired search (the default before PIMC) and single-observer ISMCTS, each from worlds dealt from the view
        for search in ("paired", "single"):
            assert _decide(5, state, seat, search=search) == _decide(5, other, seat, search=search)
        # the opponent model: the other seats take the heuristic's pick in the worlds dealt from the view
        for search in ("single", "multi"):
            assert _decide(5, state, seat, search=search, opponents="heuristic") == \
                _decide(5, other, seat, search=search, opponents="heuristic")
        compared += 1
    assert compared >= 3


def test_that_comparison_catches_a_player_that_peeks():
    """The test above can fail: a player searching the real game decides differently
    in two games that look alike to it, somewhere."""
    game = Game(ORIGINAL, 4)
    differed = False
    for seed in range(30):
        for state, seat in _positions(game, seed, 4):
            other = state.resample_from_view(seat, random.Random(123))
            if _decide(5, state, seat, Peeking, rollout="random") != \
                    _decide(5, other, seat, Peeking, rollout="random"):
                differed = True
                break
        if differed:
            break
    assert differed


class OnlyTheView:
    """A handle with nothing but a view's public face, the game and resample: a player
    that reaches for anything else fails with AttributeError."""

    def __init__(self, state, seat):
        self._view = SearchView(state, seat)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._view, name)


def test_the_search_uses_nothing_but_the_view_and_resampling():
    game = Game(ORIGINAL, 4)
    for state, seat in _positions(game, 3, 5):
        bot = ISMCTSBot(1, seat, iterations=4)
        bot.start(game, seat)
        assert bot.choose(OnlyTheView(state, seat), state.decision()) in state.decision().options


def test_a_plain_view_is_refused_with_a_clear_error():
    state = Game(ORIGINAL, 4).new_state(1)
    while len(state.decision().options) == 1:
        state.apply_action(state.decision().options[0])
    bot = ISMCTSBot(0, state.decision().seat)
    with pytest.raises(TypeError, match="SearchView"):
        bot.choose(View(state, state.decision().seat), state.decision())


def _known_kitten_on_top(hand):
    """Seat 0 to play, holding ``hand``, knowing an Exploding Kitten lies on top of the pile."""
    cards = ORIGINAL.cards

    def layout(table):
        for card_id in hand:
            table.new_card(cards[card_id], table.hands[0])
        for seat in (1, 2):
            for card_id in ("tacocat", "beard_cat", "defuse"):
                table.new_card(cards[card_id], table.hands[seat])
        kitten = table.new_card(cards["exploding_kitten"], table.draw_pile)
        for card_id in ["tacocat", "cattermelon", "beard_cat", "exploding_kitten"] * 3:
            table.new_card(cards[card_id], table.draw_pile)
        table.show([kitten], 1)
        table.current, table.owed[0] = 0, 1
    return Game(ORIGINAL, 3).new_state(4, layout=layout)


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_it_does_not_draw_a_kitten_it_knows_is_on_top(rollout):
    state = _known_kitten_on_top(["skip", "tacocat"])
    assert state.view(0).draw_pile_known() == {0: "exploding_kitten"}
    bot = ISMCTSBot(0, 0, iterations=30, rollout=rollout)
    bot.start(state.game, 0)
    assert bot.choose(SearchView(state, 0), state.decision()) == "play skip"


def test_a_time_budget_bounds_the_search():
    state = _known_kitten_on_top(["skip", "attack", "tacocat"])
    bot = ISMCTSBot(0, 0, seconds=0.05, rollout="random")
    bot.start(state.game, 0)
    assert bot.choose(SearchView(state, 0), state.decision()) in ("play skip", "play attack")
    assert bot.searched >= 1


def _playables():
    for entry in catalog([shipped_editions()]):
        yield entry["id"] + (f"-{entry['variant']}" if entry.get("variant") else ""), entry


PLAYABLES = list(_playables())


@pytest.mark.parametrize("label, entry", PLAYABLES, ids=[p[0] for p in PLAYABLES])
def test_it_plays_whole_games_of_every_shipped_edition(label, entry):
    edition = load_edition(entry["path"], entry.get("variant"))
    lo, hi = edition.players
    players = min(max(3, lo), hi)
    game = Game(edition, players)
    specs = ["ismcts:iterations=2:rollout=random", "heuristic", "ismcts:iterations=2"][:players]
    state = play_game(game, 11, make_players(specs, players, 11), record=False)
    assert state.is_terminal()


@pytest.mark.parametrize("name, players", [("original", 4), ("imploding", 4), ("streaking", 4)])
def test_a_dealt_world_carries_no_trace_of_the_real_hidden_cards(name, players):
    """A world is all a searching player gets besides its view, so nothing in it may point
    at the real hidden cards: not the cards' serial numbers (given in deck order, so a
    number names the real card dealt at a place), not the event log's secrets, not the
    seed and actions that replay the real game."""
    from kittens.interpreter.lang.errors import GameError

    game = Game(load_edition(name), players)
    titles_by_uid = {inst.uid: inst.id for inst in game.new_state(0, record=False).table.cards}
    moved = 0
    for state, seat in _positions(game, 5, 8, record=True):
        bit = 1 << seat
        world = state.resample_from_view(seat, random.Random(9))
        for zone in world.table.zones():
            for inst in zone.cards:
                # a card's number goes with its face: it tells what the world dealt, no more
                assert titles_by_uid[inst.uid] == inst.id, (zone.name, inst)
        moved += _hidden(world, seat) != _hidden(state, seat)
        for event in world.table.log.events:
            assert event.get("only") is None or event["only"] & bit, event
            for field, seers in event.get("secret", {}).items():
                assert seers & bit or field not in event, event
        # what the seat observed is all still there (OpenSpiel's ISMCTS keys its tree by it)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.history == [] and world.seed != state.seed
        with pytest.raises(GameError, match="dealt from a view"):
            world.serialize()
        world.apply_action(world.decision().options[0])  # and it plays on
    assert moved >= 3


@pytest.mark.parametrize("name, players", [("original", 4), ("imploding", 4), ("party", 6)])
def test_a_world_dealt_without_events_is_the_same_world_and_plays_the_same(name, players):
    """The search deals its worlds with ``record=False``: the same cards at the same places,
    the same chance, played to the same end; only no event is kept or recorded."""
    game = Game(load_edition(name), players)
    for state, seat in _positions(game, 11, 6, record=True):
        recorded = state.resample_from_view(seat, random.Random(4))
        silent = state.resample_from_view(seat, random.Random(4), record=False)
        assert _hidden(silent, seat) == _hidden(recorded, seat)
        assert silent.table.log.events == [] and not silent.table.log.record
        assert state.table.log.record and state.table.log.events  # the real game is untouched
        rng = random.Random(8)
        while not recorded.is_terminal():
            option = rng.choice(recorded.legal_actions())
            assert silent.legal_actions() == recorded.legal_actions()
            recorded.apply_action(option)
            silent.apply_action(option)
        assert silent.is_terminal() and silent.returns() == recorded.returns()
        assert silent.table.log.events == []
        assert silent.view(seat).to_dict() == recorded.view(seat).to_dict()


def _attacked_with_a_kitten_on_top(mine, theirs):
    """Seat 2 (holding ``theirs``) about to play an Attack on seat 0 (holding ``mine``, no
    Defuse), everyone knowing an Exploding Kitten lies on top of the pile."""
    cards = ORIGINAL.cards

    def layout(table):
        for seat, hand in ((0, mine), (1, ["tacocat", "beard_cat"]), (2, theirs)):
            for card_id in hand:
                table.new_card(cards[card_id], table.hands[seat])
        kitten = table.new_card(cards["exploding_kitten"], table.draw_pile)
        for card_id in ["tacocat", "cattermelon", "beard_cat", "exploding_kitten"] * 3:
            table.new_card(cards[card_id], table.draw_pile)
        table.show([kitten], 0b111)
        table.current, table.owed[2] = 2, 1
    state = Game(ORIGINAL, 3).new_state(4, layout=layout)
    state.apply_action("play attack")
    return state


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_it_answers_in_reaction_windows_and_fights_a_nope_war(rollout):
    """Answers are searched like any decision: attacked with a kitten on top and no Defuse,
    it Nopes; Noped back, it Nopes again (with random rollouts nothing but the search
    tells it so; a player that did not search windows would pass half the time)."""
    for seed in range(4):
        state = _attacked_with_a_kitten_on_top(["nope", "tacocat"], ["attack", "cattermelon"])
        assert state.decision().seat == 0 and state.decision().options == ["pass", "play nope"]
        assert _decide_with(seed, state, 0, rollout) == "play nope"

        state = _attacked_with_a_kitten_on_top(["nope", "nope", "tacocat"], ["attack", "nope"])
        state.apply_action("play nope")
        assert state.decision().seat == 2
        state.apply_action("play nope")  # Noped back
        assert state.decision().seat == 0 and state.decision().kind == "answer"
        assert _decide_with(seed, state, 0, rollout) == "play nope"


def _decide_with(seed, state, seat, rollout):
    bot = ISMCTSBot(seed, seat, iterations=40, rollout=rollout)
    bot.start(state.game, seat)
    bot.real = state  # only a cheat reads it (a view has no way to the real game)
    return bot.choose(SearchView(state, seat), state.decision())


@pytest.mark.parametrize("spec", ["ismcts:iterations=3:search=single", "ismcts:iterations=2:search=pimc",
                                  "ismcts:iterations=3:rollout=draw:depth=5", "ismcts:iterations=3:search=multi",
                                  "ismcts:seconds=0.01:cpu=true:search=single",
                                  "ismcts:iterations=3:search=single:opponents=heuristic",
                                  "ismcts:iterations=3:search=multi:opponents=heuristic:rollout=draw:depth=5"])
def test_every_search_and_rollout_plays_whole_games(spec):
    game = Game(ORIGINAL, 3)
    state = play_game(game, 4, make_players([spec, "heuristic"], 3, 4), record=False)
    assert state.is_terminal() and state.winner is not None


def test_a_single_walk_search_walks_once_per_world_and_the_paired_once_per_option():
    game = Game(ORIGINAL, 4)
    for state, seat in _positions(game, 3, 3):
        walks = {}
        for search in ("single", "multi", "paired"):
            bot = ISMCTSBot(1, seat, iterations=5, search=search)
            bot.start(game, seat)
            counted = []
            walk, walk_multi = bot._iterate, bot._iterate_multi
            bot._iterate = lambda *args: counted.append(1) or walk(*args)
            bot._iterate_multi = lambda *args: counted.append(1) or walk_multi(*args)
            option = bot.choose(SearchView(state, seat), state.decision())
            assert option in state.decision().options and bot.searched == 5
            walks[search] = len(counted)
        assert walks == {"single": 5, "multi": 5, "paired": 5 * len(state.decision().options)}


def test_multiple_observer_search_keeps_a_tree_per_seat_split_by_what_that_seat_knows():
    """In multi, another seat's nodes are told apart by its own hand in each world (its
    choices follow what it holds there), while the single-observer tree lumps them
    together; and the searching seat's nodes never split by cards it cannot see."""
    game = Game(ORIGINAL, 4)
    checked = 0
    for state, seat in _positions(game, 11, 4):
        bot = ISMCTSBot(2, seat, iterations=60, search="multi")
        bot.start(game, seat)
        bot.choose(SearchView(state, seat), state.decision())
        assert len(bot.trees) == 4
        hands = {}  # seat -> the hands it was found holding at its nodes below the root
        for other, tree in enumerate(bot.trees):
            for key in tree:
                hand = key[3 + 4 + other]  # kind, alive, owed, 4 shared zones, then the hands
                assert hand[0] == len(hand[1])  # a seat knows every card of its own hand
                hands.setdefault(other, set()).add(hand)
        others = [other for other in hands if other != seat]
        if others:
            assert any(len(hands[other]) > 1 for other in others)
            checked += 1
    assert checked >= 2


def test_a_rollout_cut_short_scores_the_seats_still_in_alike():
    from kittens.interpreter.engine.search import Places

    state = Game(ORIGINAL, 4).new_state(2, record=False)
    places = Places(state.table, 0.8)
    state.table.alive[1] = False  # seat 1 went out first during the walk
    places.update()
    rewards = places.rewards(state)
    assert rewards[1] == 0.0
    still = [rewards[seat] for seat in (0, 2, 3)]
    assert len(set(still)) == 1  # nobody is favoured by where the rollout stopped
    # the three places left are worth 1/3 and 2/3 of the loser's share and a win: their mean
    assert still[0] == pytest.approx((0.8 / 3 + 2 * 0.8 / 3 + 1) / 3)


@pytest.mark.parametrize("share", [0.0, 0.5])
def test_a_losers_share_scales_what_its_place_is_worth(share):
    from kittens.interpreter.engine.search import Places

    state = Game(ORIGINAL, 4).new_state(2, record=False)
    places = Places(state.table, share)
    state.table.alive[1] = False  # seat 1 goes out first, then seat 3
    places.update()
    state.table.alive[3] = False
    places.update()
    rewards = places.rewards(state)
    assert rewards[1] == 0.0
    assert rewards[3] == pytest.approx(share / 3)  # it outlasted one of the three others
    assert rewards[0] == rewards[2] == pytest.approx((2 * share / 3 + 1) / 2)


def test_a_losers_share_below_a_win_is_checked():
    assert ISMCTSBot(0, 0, share=0).share == 0
    for wrong in (-0.1, 1.0):
        with pytest.raises(ValueError, match="share"):
            ISMCTSBot(0, 0, share=wrong)


def test_a_search_in_cpu_seconds_counts_the_processs_time():
    import time
    bot = ISMCTSBot(0, 0, seconds=0.05, cpu=True)
    assert bot.clock is time.process_time
    assert ISMCTSBot(0, 0, seconds=0.05).clock is time.perf_counter
    with pytest.raises(ValueError, match="search"):
        ISMCTSBot(0, 0, search="mo")


def test_with_the_opponent_model_the_tree_branches_only_at_the_seats_own_decisions():
    game = Game(ORIGINAL, 4)
    for state, seat in _positions(game, 11, 3):
        for search in ("single", "paired"):
            bot = ISMCTSBot(3, seat, iterations=40, search=search, opponents="heuristic")
            bot.start(game, seat)
            seats = []
            situation = bot._situation
            bot._situation = lambda st, decision: seats.append(decision.seat) or situation(st, decision)
            assert bot.choose(SearchView(state, seat), state.decision()) in state.decision().options
            assert seats and set(seats) == {seat}  # every node below the root is one of its own decisions
            plain = ISMCTSBot(3, seat, iterations=40, search=search)
            plain.start(game, seat)
            seen = []
            plain._situation = lambda st, decision: seen.append(decision.seat) or ISMCTSBot._situation(plain, st,
                                                                                                      decision)
            plain.choose(SearchView(state, seat), state.decision())
            assert set(seen) - {seat}  # without it, the other seats' decisions are nodes too


class _Asked:
    """A rollout's heuristic bot that counts the decisions it is asked."""

    def __init__(self, inner) -> None:
        self.inner, self.asked = inner, 0

    @property
    def rng(self):
        return self.inner.rng

    def choose(self, view, decision):
        self.asked += 1
        return self.inner.choose(view, decision)


@pytest.mark.parametrize("search", ["pimc", "single", "paired", "multi"])
def test_a_table_modelled_as_random_never_asks_the_others_heuristics(search):
    game = Game(ORIGINAL, 4)
    checked = 0
    for state, seat in _positions(game, 5, 3):
        asked = {}
        for opponents in ("random", "search"):
            bot = ISMCTSBot(2, seat, iterations=30, search=search, opponents=opponents)
            bot.start(game, seat)
            bot._heuristics = [_Asked(inner) for inner in bot._heuristics]
            assert bot.choose(SearchView(state, seat), state.decision()) in state.decision().options
            asked[opponents] = [helper.asked for helper in bot._heuristics]
        others = [other for other in range(4) if other != seat]
        assert all(asked["random"][other] == 0 for other in others)
        assert asked["random"][seat] > 0  # the seat itself still plays as the heuristic
        assert sum(asked["search"][other] for other in others) > 0  # by default they are asked
        checked += 1
    assert checked == 3


def test_a_table_modelled_as_random_plays_whole_games():
    game = Game(ORIGINAL, 4)
    for rollout in ("heuristic", "random"):
        bots = [ISMCTSBot(4, 0, iterations=6, opponents="random", rollout=rollout)] + \
            make_players(["random"], 4, 4)[1:]
        state = play_game(game, 4, bots, record=False)
        assert state.is_terminal() and state.winners


def test_the_opponent_model_needs_the_heuristics_of_the_rollouts():
    with pytest.raises(ValueError, match="opponents"):
        ISMCTSBot(0, 0, opponents="heuristic", rollout="random")
    with pytest.raises(ValueError, match="opponents"):
        ISMCTSBot(0, 0, opponents="nobody")


# worlds: the leader (0) beats 1 in every world, is level with 2 on average, and the
# rollout policy's pick (3) loses to it in every world
_RACED = [[1.0, 0.8] * 8, [0.2, 0.2] * 8, [0.8, 1.0] * 8, [0.0, 0.2] * 8]


@pytest.mark.parametrize("width, keep, kept", [
    (2.0, 3, [0, 2, 3]),  # 1 is dropped; the rollout policy's pick never is
    (2.0, None, [0, 2]),
    (0.0, None, [0, 2]),  # level with the leader is still in the race at any width
    (50.0, None, [0, 1, 2, 3]),  # a wide race drops nothing
])
def test_a_race_drops_the_options_the_leader_clearly_beats(width, keep, kept):
    assert race([0, 1, 2, 3], _RACED, keep, width) == kept


def test_the_pick_after_a_race_is_among_the_options_still_raced():
    # a dropped option's few early worlds may look better than the survivors' later ones
    paired = [[1.0] * 2, [0.6] * 10, [0.5] * 10]
    assert pick(["a", "b", "c"], paired, None, 1.0, [1, 2]) == "b"
    assert pick(["a", "b", "c"], paired, None, 1.0) == "a"


def test_a_raced_search_spends_its_later_worlds_on_the_contenders():
    game = Game(ORIGINAL, 4)
    narrowed = 0
    for state, seat in _positions(game, 8, 6):
        options = state.decision().options
        bot = ISMCTSBot(3, seat, iterations=48, race=0.5)
        bot.start(game, seat)
        assert bot.choose(SearchView(state, seat), state.decision()) in options
        assert max(bot.tried) == 48 and min(bot.tried) >= RACE_START
        narrowed += min(bot.tried) < 48
        plain = ISMCTSBot(3, seat, iterations=48, race=0)
        plain.start(game, seat)
        plain.choose(SearchView(state, seat), state.decision())
        assert plain.tried == [48] * len(options)  # without race every option sees every world
    assert narrowed  # some option was dropped early somewhere


def test_a_raced_search_plays_whole_games_and_a_negative_race_is_refused():
    game = Game(ORIGINAL, 4)
    state = play_game(game, 6, make_players(["ismcts:iterations=12:race=1", "heuristic"], 4, 6), record=False)
    assert state.is_terminal() and state.winners
    with pytest.raises(ValueError, match="race"):
        ISMCTSBot(0, 0, race=-1)


@pytest.mark.parametrize("search, share, confidence, race", [
    ("pimc", 0.0, 2.0, 2.0),  # tuned: stronger at 100 ms and 1 s a decision
    ("paired", 0.8, 1.0, 0.0),  # the others keep the settings of before
    ("single", 0.8, 1.0, 0.0),
    ("multi", 0.8, 1.0, 0.0),
])
def test_each_search_has_its_own_defaults_and_takes_what_it_is_given(search, share, confidence, race):
    bot = ISMCTSBot(0, 0, search=search)
    assert (bot.share, bot.confidence, bot.race) == (share, confidence, race)
    given = ISMCTSBot(0, 0, search=search, share=0.5, confidence=0, race=0)
    assert (given.share, given.confidence, given.race) == (0.5, 0, 0)
    assert ISMCTSBot(0, 0).search == "pimc" and ISMCTSBot(0, 0).race == 2.0

