"""A player that searches: information-set Monte Carlo tree search (single- or multiple-observer).

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search"
(IEEE TCIAIG 2012). At each of its decisions the player runs iterations; each
one deals a *world* its seat cannot tell from the real game
(:meth:`views.SearchView.resample`: the cards it cannot see dealt afresh),
walks one tree with it, adds a node, plays the world to its end with a rollout
policy and credits every decision on the way with the result for the seat that
took it. The tree is shared by all the worlds: a node stands for what the
searching seat could tell apart (whose decision, of which kind, and at its own
decisions its hand and what it knows of the draw pile), and an option is
scored only among the worlds in which it was legal (its *availability*), so the
statistics gather over an information set rather than over one dealt world.

Every decision is searched the same way: the player's own, the other seats'
(each picks what is best for itself in the tree) and the answers in reaction
windows, so Nope wars are played out too. No card is known by name: the
engine plays the worlds, and the rollouts are random or the heuristic bot, which
reads its roles from the edition.

The player never sees the real game: it is handed a :class:`views.SearchView`,
whose only powers are the seat's view and dealing worlds from it. The worlds
are those the rules allow (worlds.py): a title the rules never leave hidden in
a hand, such as the Original's Exploding Kitten, is dealt only where it may lie.
"""

from __future__ import annotations

import math
import time

from ..lang.machine import below
from .bots import HeuristicBot, bot_rng
from .decisions import Chance
from .flow import DRAW
from .reactions import PASS
from .views import LiveView

#: the rollout policies, by name
ROLLOUTS = ("random", "heuristic", "draw")
#: a rollout stops (nobody wins) after this many more turns
ROLLOUT_TURNS = 400
#: how the root is searched, by name (see ISMCTSBot)
SEARCHES = ("paired", "single", "pimc", "multi")
#: how the other seats' decisions in the tree are taken, by name (see ISMCTSBot)
OPPONENTS = ("search", "heuristic", "random")
#: what outlasting every other seat but the winner is worth, against 1 for a win
LOSER_SHARE = 0.8
#: each search's defaults for the settings left out (None), the best measured for it
#: (docs/ai.md): PIMC scores wins alone, overrules the heuristic's pick on two standard
#: errors and races its options (stronger at 100 ms and 1 s a decision); scoring wins
#: alone made the tree searches weaker (multi -3.6 points at 10 ms), so they keep
#: the settings of before, as does the paired search, whose tuning was not measured
_UNTUNED = {"share": LOSER_SHARE, "confidence": 1.0, "race": 0.0}
SEARCH_DEFAULTS = {"pimc": {"share": 0.0, "confidence": 2.0, "race": 2.0},
                   "paired": _UNTUNED, "single": _UNTUNED, "multi": _UNTUNED}
#: race=: the worlds every option is tried in before any may be dropped
RACE_START = 8


class Edge:
    """An option taken at a node: how often it was tried, its total reward for the seat
    that took it, in how many walks it was legal, and the nodes after it (by situation)."""

    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict = {}


class ISMCTSBot:
    """Single-observer ISMCTS for any edition; see the module's docstring.

    ``iterations`` worlds are searched per decision, or as many as fit in
    ``seconds`` when that is given. ``rollout`` is ``"heuristic"`` (every seat
    played to the end by the heuristic bot), ``"random"`` (uniform options) or
    ``"draw"`` (every seat ends its turns by drawing and lets every play pass; its
    other choices, such as where a defused card goes, are the heuristic bot's):
    the cheapest, which plays out the one thing every game turns on, who draws
    what. ``depth`` stops a rollout after that many turns (0: at the end) and
    scores the seats still in alike.

    ``search`` is how each world is used (the default ``"pimc"`` was the strongest
    or not told apart from the strongest at equal CPU time, docs/ai.md): ``"paired"`` tries every root option in
    it (common random numbers) and walks the shared tree below each;
    ``"single"`` is single-observer ISMCTS as published, one walk per world,
    the root chosen by UCB like any node (an iteration is then one walk, several
    times cheaper); ``"pimc"`` is perfect-information Monte Carlo: every root
    option tried in every world and rolled out at once, no tree below;
    ``"multi"`` is multiple-observer ISMCTS (Cowling, Powley and Whitehouse
    2012): one walk per world as in ``"single"``, but one tree per seat, each
    seat's options chosen in its own tree at nodes told apart by what that seat
    knows in the world (its hand, the cards it has seen), so the other seats play
    their own hands rather than one average over every hand they might hold.

    ``opponents`` is how the other seats decide in the tree: ``"search"`` (each
    picks what is best for itself by UCB, as above) or ``"heuristic"`` (each takes
    the heuristic bot's pick, as in the rollouts: an opponent model, so the tree
    branches only at the seat's own decisions and its walks are not spread over
    the other seats' options; it needs heuristic or draw rollouts). Heuristic
    rollouts model the other seats as heuristic bots whatever ``opponents`` says,
    except with ``"random"``: the other seats then pick at random in the tree and
    in the rollouts, a model of a table of random players (the seat itself still
    rolls out as the heuristic bot).

    ``share`` is what a walk's loser scores for outlasting every other seat but the
    winner (a win is worth 1; a seat outlasting some of them scores that part of
    it): 0 scores wins alone; more tells options apart sooner in
    walks most seats lose, at the cost of valuing a good place near a win.

    ``confidence`` is how many standard errors of the world-by-world difference
    the best option must beat the heuristic's pick by to overrule it (PIMC and the
    paired search), and ``race`` drops, after ``RACE_START`` worlds, an option the
    leader beats by that many (0: every option in every world). Left out, these
    three take their search's defaults (``SEARCH_DEFAULTS``): for PIMC share 0,
    confidence 2 and race 2, which beat share 0.8, confidence 1 and no race at 100
    ms and 1 s a decision (with a few worlds a decision, 10 ms, they were not
    better: docs/ai.md); for the other searches share 0.8, confidence 1, no race.

    ``cpu=True`` counts ``seconds`` in CPU time of this process, not on the wall
    clock. ``exploration`` is the UCB constant for rewards between 0 and 1.
    ``prior=False`` deals worlds uniformly from the view alone, without what the
    rules allow (worlds.py).
    """

    name = "ismcts"
    needs_state = True  # play_game hands it a SearchView (bots.py: the player protocol)

    def __init__(self, seed: int = 0, seat: int = 0, *, iterations: int = 100,
                 seconds: float | None = None, rollout: str = "heuristic",
                 exploration: float = 0.7, bias: float = 1.0, confidence: float | None = None,
                 widening: float = 0.5, depth: int = 0, search: str = "pimc",
                 cpu: bool = False, prior: bool = True, opponents: str = "search",
                 share: float | None = None, race: float | None = None) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout '{rollout}'; the rollouts are: {', '.join(ROLLOUTS)}")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be more than 0")
        self.seed, self.seat = seed, seat
        self.iterations, self.seconds = iterations, seconds
        self.rollout, self.exploration, self.use_prior = rollout, exploration, prior
        if search not in SEARCHES:
            raise ValueError(f"unknown search '{search}'; the searches are: {', '.join(SEARCHES)}")
        self.search = search
        defaults = SEARCH_DEFAULTS[search]
        share = defaults["share"] if share is None else share
        confidence = defaults["confidence"] if confidence is None else confidence
        race = defaults["race"] if race is None else race
        self.bias, self.confidence, self.widening = bias, confidence, widening
        if opponents not in OPPONENTS:
            raise ValueError(f"unknown opponents '{opponents}'; they are: {', '.join(OPPONENTS)}")
        if opponents == "heuristic" and rollout == "random":
            raise ValueError("opponents=heuristic needs heuristic or draw rollouts (their heuristic bots)")
        self.opponents = opponents
        self.follow = opponents != "search"  # the other seats take the model's pick in the tree
        self._randoms: frozenset = frozenset()  # opponents=random: the seats modelled as random
        if not 0.0 <= share < 1.0:
            raise ValueError("share must be at least 0 and less than 1 (a win is worth 1)")
        self.share = share
        if race < 0:
            raise ValueError("race must be 0 (every option to the end) or more standard errors")
        self.race = race
        # the CPU time of this process rather than the wall clock: a budget that means the
        # same work on a busy machine (a benchmark's "one core each")
        self.clock = time.process_time if cpu else time.perf_counter
        if depth < 0:
            raise ValueError("depth must be 0 (to the end) or more turns")
        self.depth = depth
        self.rng = bot_rng(seed, seat)
        self.game = None
        self._heuristics: list = []
        self.searched = 0  # iterations run in the last decision searched (for reports)
        self.tried: list = []
        self.trees: list = []

    def start(self, game, seat: int) -> None:
        self.game, self.seat = game, seat
        if self.opponents == "random":
            self._randoms = frozenset(other for other in range(game.players) if other != seat)
        if self.rollout in ("heuristic", "draw"):
            self._heuristics = []
            for other in range(game.players):
                bot = HeuristicBot(self.seed, other)
                bot.start(game, other)
                self._heuristics.append(bot)

    # -- a decision -----------------------------------------------------------------
    def choose(self, view, decision):
        options = decision.options
        if len(options) == 1:
            return options[0]
        resample = getattr(view, "resample", None)
        if resample is None:
            raise TypeError("ISMCTSBot needs a SearchView (set needs_state = True and let "
                            "play_game hand it one)")
        if self.game is None:
            self.start(view.game, view.seat)
        root: dict = {}
        clock = self.clock
        deadline = clock() + self.seconds if self.seconds is not None else None
        paired = [[] for _ in options]  # the seat's reward for each root option, world by world
        # pimc's options still raced (race=): one dropped is tried in no later world, so each
        # option's rewards are those of the first worlds, and any two pair world for world
        racing = list(range(len(options)))
        hint = keep = None
        if self.race and self._heuristics:  # known from the start: the race never drops it
            hint = self._heuristics[self.seat].choose(view, decision)
            keep = options.index(hint) if hint in options else None
        check = RACE_START
        done = 0
        single = self.search in ("single", "multi")
        # multi: one tree per seat, each a dict from what that seat can tell apart to a node
        trees: list = [{} for _ in range(self.game.players)] if self.search == "multi" else []
        while True:
            # nothing here reads a world's events
            world = resample(self.rng, record=False) if self.use_prior else \
                resample(self.rng, record=False, uniform=True)
            if trees:
                self._iterate_multi(root, trees, world)
            elif single:
                self._iterate(root, world, None)
            else:
                # every root option is tried in the same world, with the same chance and the same
                # rollout choices (common random numbers), so options are compared world for world
                rollout_seed = self.rng.getrandbits(32)
                last = racing[-1]
                for index in racing:
                    here = world.clone() if index != last else world
                    for number, bot in enumerate(self._heuristics):
                        bot.rng.seed(rollout_seed + number)
                    paired[index].append(self._iterate(root, here, options[index]))
                worlds = len(paired[last])  # every option still raced has seen them all
                if self.race and worlds >= check and len(racing) > 1:
                    racing = race(racing, paired, keep, self.race)
                    check = worlds + max(RACE_START // 2, worlds // 4)
            done += 1
            if deadline is None:
                if done >= self.iterations:
                    break
            elif clock() >= deadline:
                break
        self.searched = done
        self.tried = [len(rewards) for rewards in paired]  # pimc: the worlds each option was tried in
        self.trees = trees  # multi: the seats' trees of the last decision (for tests and reports)
        if single:  # the most tried option (UCB tries the best most), the better mean on a tie
            edges = [root.get(_key(option)) for option in options]
            return options[max(range(len(options)), key=lambda index: (
                edges[index].visits, edges[index].total / edges[index].visits) if edges[index] else (0, 0.0))]
        if self._heuristics and not self.race:
            hint = self._heuristics[self.seat].choose(view, decision)
        return pick(options, paired, hint, self.confidence, racing)

    def _iterate(self, root: dict, world, first) -> float:
        """One walk: ``first`` at the root, then select by UCB down the shared tree, add
        one option, roll out and credit each decision on the way; the searching seat's
        reward comes back."""
        node, path = root, []
        pending_edge = None  # the edge whose next node is found at the next real decision
        state, table = world, world.table
        places = Places(table, self.share)
        while node is not None:
            decision = _next_choice(state, places)
            if decision is None:
                break
            options = decision.options
            if self.follow and decision.seat != self.seat:  # the opponent model: no node, no edge
                state.apply_action(self._model(state, decision))
                places.update()
                continue
            if pending_edge is not None:
                node = pending_edge.children.setdefault(self._situation(state, decision), {})
            elif first is not None:  # the root: the option this walk is about
                edge = node.get(_key(first))
                if edge is None:
                    edge = node[_key(first)] = Edge()
                path.append((edge, decision.seat))
                state.apply_action(first)
                places.update()
                pending_edge = edge
                if self.search == "pimc":  # no tree below the root: roll out at once
                    break
                continue
            best, edge, added = self._select(node, options, self._hint(state, decision))
            if added:
                node = None
            path.append((edge, decision.seat))
            state.apply_action(best)
            places.update()
            pending_edge = edge
        return self._finish(state, places, path)

    def _finish(self, state, places, path: list) -> float:
        """The end of a walk: roll the world out (unless it is over), credit each edge on
        ``path`` with the result for the seat that took it; the searching seat's reward."""
        if not state.is_terminal():
            self._roll_out(state, places)
        rewards = places.rewards(state)
        for edge, seat in path:
            edge.visits += 1
            edge.total += rewards[seat]
        return rewards[self.seat]

    def _select(self, node: dict, options, hint) -> tuple:
        """The option to walk at a tree node, its edge, and whether the edge is new: UCB
        over the options tried (counted only where they were available), with a
        progressive bias towards the rollout policy's pick (``hint``); progressive
        widening adds one more option as the node's visits grow (the hint first), so
        rarely visited decisions follow the rollout policy."""
        exploration, bias = self.exploration, self.bias
        fresh, best, best_score, tried = [], None, -1.0, 0
        for option in options:
            edge = node.get(_key(option))
            if edge is None:
                fresh.append(option)
                continue
            edge.avail += 1
            visits = edge.visits
            tried += visits
            score = edge.total / visits + exploration * math.sqrt(math.log(edge.avail) / visits)
            if option == hint and type(option) is type(hint):  # progressive bias
                score += bias / (visits + 1)
            if score > best_score:
                best, best_score = option, score
        if fresh and (best is None or len(options) - len(fresh) < 1 + int(self.widening * math.sqrt(tried))):
            best = hint if hint in fresh else fresh[below(self.rng, len(fresh))]
            edge = node[_key(best)] = Edge()
            return best, edge, True
        return best, node[_key(best)], False

    def _iterate_multi(self, root: dict, trees: list, world) -> float:
        """One walk of multiple-observer ISMCTS: each seat's options are chosen in that
        seat's own tree (``trees[seat]``), whose nodes stand for what the seat can tell
        apart when it decides (:meth:`_observed`), so a seat's choices follow its own
        hand and knowledge in this world and not one average over all its hands; the
        trees are walked together along the same moves, one option is added to the tree
        of the seat that meets a new one, and each edge is credited with the result for
        the seat that took it."""
        state, table = world, world.table
        places = Places(table, self.share)
        pending = list(trees)  # per seat: where its next node is found (its tree's top, then below an edge)
        path: list = []
        at_root, growing = True, True
        while growing:
            decision = _next_choice(state, places)
            if decision is None:
                break
            options = decision.options
            seat = decision.seat
            if self.follow and seat != self.seat:  # the opponent model: only the seat's own tree grows
                state.apply_action(self._model(state, decision))
                places.update()
                continue
            if at_root:  # the searching seat's decision, the same in every world
                node, at_root = root, False
            else:
                key = self._observed(table, decision, seat)
                children = pending[seat]
                node = children.get(key)
                if node is None:
                    node = children[key] = {}
            best, edge, added = self._select(node, options, self._hint(state, decision))
            if added:
                growing = False  # one new option a walk, then the rollout
            path.append((edge, seat))
            state.apply_action(best)
            places.update()
            pending[seat] = edge.children
        return self._finish(state, places, path)

    @staticmethod
    def _observed(table, decision, seat: int) -> tuple:
        """What ``seat`` can tell apart when it decides: the decision's kind, and per
        zone its size and the cards the seat knows at their places (a hand as a sorted
        list: its order means nothing), with who is in and the turns owed. No card is
        named; what a seat knows is the engine's per-card mark of the seats that know it."""
        bit = 1 << seat
        seen: list = [decision.kind, tuple(table.alive), tuple(table.owed)]
        append = seen.append
        for zone in table.zones():
            cards = zone.cards
            if zone.owner is not None and zone is table.hands[zone.owner]:
                append((len(cards), tuple(sorted(inst.id for inst in cards if inst.known & bit))))
            else:
                append(tuple(inst.id if inst.known & bit else None for inst in cards))
        return tuple(seen)

    def _hint(self, state, decision):
        """The rollout policy's own pick, which the tree tries first and favours while
        it has few visits (None with random rollouts)."""
        bots = self._heuristics
        if not bots:
            return None
        seat = decision.seat
        return bots[seat].choose(LiveView(state, seat), decision)

    def _model(self, state, decision):
        """The pick of another seat by the opponent model: at random for a seat modelled
        as random (from that seat's rollout generator, reseeded alike for every root
        option; the search's own with random rollouts), else the heuristic's."""
        seat = decision.seat
        if seat in self._randoms:
            options = decision.options
            bots = self._heuristics
            return options[below(bots[seat].rng if bots else self.rng, len(options))]
        return self._hint(state, decision)

    def _situation(self, state, decision) -> tuple:
        """What the searching seat can tell apart about a decision: whose and which kind,
        and at its own decisions its hand and the draw-pile places it knows."""
        seat = decision.seat
        if seat != self.seat:
            return seat, decision.kind
        table, bit = state.table, 1 << seat
        hand = tuple(sorted(inst.id for inst in table.hands[seat].cards))
        known = tuple((place, inst.id) for place, inst in enumerate(table.draw_pile.cards)
                      if inst.known & bit)
        return seat, decision.kind, hand, known

    def _roll_out(self, state, places: "Places") -> None:
        """Play the world on, to its end or ``depth`` more turns (and at most
        ROLLOUT_TURNS: a house rule's game may never end)."""
        table = state.table
        last = table.turn + (min(self.depth, ROLLOUT_TURNS) if self.depth else ROLLOUT_TURNS)
        update = places.update
        bots = self._heuristics
        rng = self.rng
        drawing = self.rollout == "draw"
        randoms = self._randoms
        while True:
            decision = state.decision()
            if decision is None or table.turn > last:
                return
            if type(decision) is Chance:
                state.apply_action(state.sample_chance())
                continue
            options = decision.options
            if len(options) == 1:
                state.apply_action(options[0])
            elif drawing and DRAW in options:
                state.apply_action(DRAW)
            elif drawing and PASS in options:
                state.apply_action(PASS)
            elif bots:
                seat = decision.seat
                if seat in randoms:  # the opponent model: this seat plays at random here
                    state.apply_action(options[below(bots[seat].rng, len(options))])
                else:
                    state.apply_action(bots[seat].choose(LiveView(state, seat), decision))
            else:
                state.apply_action(options[below(rng, len(options))])
            update()


class Places:
    """Who went out in which order during a walk, for rewards by place: a seat that
    outlasts more players scores more, which tells options apart far sooner than
    wins alone (most walks are lost by most seats)."""

    __slots__ = ("table", "alive", "outlasted", "_gone", "share")

    def __init__(self, table, share: float = LOSER_SHARE) -> None:
        self.table, self.share = table, share
        self.alive = list(table.alive)
        gone = self.alive.count(False)
        # seats already out before the walk: they outlasted nobody we count
        self.outlasted = [None if alive else 0 for alive in self.alive]
        self._gone = gone

    def update(self) -> None:
        alive = self.table.alive
        if alive != self.alive:
            gone = self._gone
            for seat, (was, now) in enumerate(zip(self.alive, alive)):
                if was and not now:
                    self.outlasted[seat] = gone
            self._gone = alive.count(False)
            self.alive = list(alive)

    def rewards(self, state) -> list:
        """1 for a winner; else the share of the other seats that went out before it. In a
        game stopped before its end, the seats still in share alike what is left: each
        gets the mean reward of the places still to be decided."""
        others = max(len(self.alive) - 1, 1)
        gone, share = self._gone, self.share
        if state.is_terminal():
            winners = set(state.winners)
            return [1.0 if seat in winners else (gone if out is None else out) / others * share
                    for seat, out in enumerate(self.outlasted)]
        left = len(self.alive) - gone
        still = (sum((gone + place) / others * share for place in range(left - 1)) + 1.0) / max(left, 1)
        return [still if out is None else out / others * share for out in self.outlasted]


def _next_choice(state, places):
    """The next decision with more than one option (None when the game is over): chance
    is resolved (a game that resolves it by hand, OpenSpiel's) and forced moves taken."""
    while True:
        decision = state.decision()
        if decision is None:
            return None
        if type(decision) is Chance:
            state.apply_action(state.sample_chance())
            continue
        if len(decision.options) == 1:
            state.apply_action(decision.options[0])
            places.update()
            continue
        return decision


def _key(option):
    """An option as a dict key (a rearrangement is a list)."""
    return tuple(option) if type(option) is list else option


def race(racing: list, paired: list, keep, width: float) -> list:
    """The options still worth trying (``racing``, by place): an option is dropped when the
    leader's mean beats it by more than ``width`` standard errors of their world-by-world
    difference, so later worlds go to the options that may still be best. ``keep``
    (the rollout policy's pick) is never dropped: ``pick`` weighs the best against it."""
    leader = max(racing, key=lambda index: sum(paired[index]))
    kept = []
    for index in racing:
        if index in (leader, keep) or not beats(paired[leader], paired[index], width):
            kept.append(index)
    return kept


def beats(rewards: list, other: list, width: float) -> bool:
    """Whether ``rewards`` beat ``other`` (the same worlds, in order) by more than
    ``width`` standard errors of their world-by-world difference."""
    diffs = [a - b for a, b in zip(rewards, other)]
    count = len(diffs)
    mean = sum(diffs) / count
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1)) if count > 1 else 0.0
    return mean > width * spread / math.sqrt(count)


def pick(options: list, paired: list, hint, confidence: float, racing: list | None = None):
    """The option with the best mean reward (among ``racing``, the places still raced, when
    given); but when the rollout policy has a pick of its own (``hint``), it is kept
    unless the best beats it by ``confidence`` standard errors of their world-by-world
    difference (noise alone never overrules it)."""
    means = [sum(rewards) / len(rewards) if rewards else 0.0 for rewards in paired]
    best = max(racing if racing is not None else range(len(options)), key=lambda index: (means[index], -index))
    if hint is None or options[best] == hint or hint not in options:
        return options[best]
    return options[best] if beats(paired[best], paired[options.index(hint)], confidence) else hint
