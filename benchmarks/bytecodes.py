"""Where a pure-Python game goes, function by function, counted in bytecodes.

cProfile charges every Python call a large fixed cost of its own, so in a game
of many small calls it points at the wrong places; callgrind (instructions.py)
counts exactly but cannot tell one Python function from another. This counts
the bytecodes each function executes (``sys.settrace`` with opcode events), which
repeats from run to run and weighs a call as the few bytecodes it is. Run it on
the sources (an editable install, or ``KITTENS_PURE_PYTHON``): compiled modules
run no bytecode.

    python benchmarks/bytecodes.py                  # 100 games of kittens bench's kind
    python benchmarks/bytecodes.py -g 100 --setup   # dealing tables only
    python benchmarks/bytecodes.py --lines flow.py:action_decision   # one function, line by line
    python benchmarks/bytecodes.py -g 300 --repeats  # how often an action decision repeats the last

``--repeats`` counts no bytecode: it plays the games and says how often a seat's
action decision finds the same hand (the same cards), the same titles in hand, or
the same options as that seat's previous action decision: what a cache of the
last decision could hope to reuse.

Slow (the tracer runs Python some fifty times slower), and only a guide: a
bytecode that calls a function costs more than one that adds two numbers.
"""

from __future__ import annotations

import argparse
import collections
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-g", "--games", type=int, default=100)
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("--edition", default="original.yaml")
    parser.add_argument("--setup", action="store_true", help="deal tables only, play no game")
    parser.add_argument("--top", type=int, default=30, help="how many functions to list")
    parser.add_argument("--repeats", action="store_true",
                        help="count action decisions that repeat the seat's previous one instead")
    parser.add_argument("--lines", metavar="FILE:FUNCTION",
                        help="count one function's bytecodes line by line instead")
    args = parser.parse_args()

    from kittens.about import EDITIONS_DIR, engine_core
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.engine.players import make_bots
    from kittens.interpreter.engine.simulate import play_game
    from kittens.interpreter.rules.load import load_edition
    if engine_core() == "compiled":
        sys.exit("the compiled core runs no bytecode: run this on the sources (KITTENS_PURE_PYTHON=1 pip install .)")
    game = Game(load_edition(str(EDITIONS_DIR / args.edition)), args.players)
    if args.repeats:
        repeats(game, args)
        return
    counts: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    where, name = (args.lines.rsplit(":", 1) if ":" in args.lines else ("", args.lines)) if args.lines else ("", "")

    def tracer(frame, event, _arg):
        code = frame.f_code
        if event == "call":
            if args.lines and (code.co_name != name or where not in code.co_filename):
                return None
            frame.f_trace_opcodes = True
            calls[code] += 1
            return tracer
        if event == "opcode":
            counts[frame.f_lineno if args.lines else code] += 1
        return tracer

    sys.settrace(tracer)
    for seed in range(args.games):
        if args.setup:
            game.new_state(seed, record=False)
        else:
            play_game(game, seed, make_bots(["random"], args.players, seed), record=False)
    sys.settrace(None)
    games = args.games
    total = sum(counts.values()) or 1
    if args.lines:
        print(f"{args.lines}: {total / games:.0f} bytecodes a game, {sum(calls.values()) / games:.1f} calls")
        for line, count in sorted(counts.items(), key=lambda item: -item[1])[:args.top]:
            print(f"  line {line or 0:5d} {count / games:9.1f} a game")
        return
    print(f"{total / games:.0f} bytecodes a game, {sum(calls.values()) / games:.0f} calls a game ({games} games)")
    for code, count in counts.most_common(args.top):
        path = code.co_filename.replace("\\", "/")
        path = path[path.rfind("/interpreter/") + 1:] if "/interpreter/" in path else path
        print(f"{count / games:9.0f} {100 * count / total:5.1f}%  {calls[code] / games:6.1f} calls  "
              f"{path}:{code.co_firstlineno} {code.co_name}")


def repeats(game, args) -> None:
    """How often a seat's action decision repeats its previous one (see the docstring)."""
    from kittens.interpreter.engine import flow
    from kittens.interpreter.engine.players import make_bots
    from kittens.interpreter.engine.simulate import play_game
    plain, last = flow.action_decision, {}
    found = {"decisions": 0, "same cards": 0, "same titles": 0, "same options": 0}

    def watched(state, seat):
        decision = plain(state, seat)
        hand = state.table.hands[seat].cards
        now = (tuple(inst.uid for inst in hand), tuple(dict.fromkeys(inst.id for inst in hand)), list(decision.options))
        before = last.get(seat)
        found["decisions"] += 1
        if before is not None:
            found["same cards"] += before[0] == now[0]
            found["same titles"] += before[1] == now[1]
            found["same options"] += before[2] == now[2]
        last[seat] = now
        return decision

    flow.action_decision = watched  # flow's GameFrame looks it up in the module at each turn
    try:
        for seed in range(args.games):
            last.clear()
            play_game(game, seed, make_bots(["random"], args.players, seed), record=False)
    finally:
        flow.action_decision = plain
    total = found["decisions"] or 1
    print(f"{found['decisions']} action decisions in {args.games} games; the seat's previous one had")
    for what in ("same cards", "same titles", "same options"):
        print(f"  the {what[5:]}: {found[what]} ({100 * found[what] / total:.1f}%)")


if __name__ == "__main__":
    main()
