"""Hostile uploads on the web table: ordinary tables under load beside uploaded house rules
that do a great deal of work in one move, and how long the server takes to stop.

    python benchmarks/web_hostile.py [--tables 50] [--seconds 60] [--hostile 3]
                                     [--also OTHER_CHECKOUT]

Starts `kittens serve` as its own process on 127.0.0.1 (a free port, a fresh data
folder) and plays the load of benchmarks/web_load.py on --tables ordinary tables (two
people-like clients and two bots each), with a spectator of one of them pinging ten
times a second. Beside them, through the page's own API:

- --hostile tables of four bots play an uploaded house rule whose turn-end trigger
  shuffles an 11,000-card draw pile some eight thousand times (many seconds of work
  in one move). The validator warns of it, and the step budget, which charges a
  shuffle a step per card, stops the move at once; with ``--step-budget`` raised
  (say 10**12, given to the server as KITTENS_STEP_BUDGET) it stands for work the
  language cannot see coming, and only the lanes' time limits stop it;
- a table is made from an uploaded rule whose game-start trigger does the same, so
  that making the table (``POST /api/rooms``) is the slow part;
- a table of four bots plays a harmless uploaded house rule (more Nopes), to see
  whether uploaded tables that behave still get played.

Every hostile request waits at most --request-seconds. A second game-start table is
asked for a second before the end, so that the server is busy with hostile work when
it is sent SIGTERM; the time from SIGTERM to its exit is measured (at most
--exit-seconds, then it is killed).

Prints the ordinary tables' move latency (p50, p95, p99) and ping (p50, p90), each
hostile table's outcome (made in how long, its game stopped and why, its moves seen),
the harmless upload's moves, and the SIGTERM-to-exit time (targets: ordinary move
p95 < 10 ms, exit within 5 s). ``--also PATH`` runs the same on the kittens of another
checkout right after, for a before/after comparison. Bounded in time and in count,
and it only ever talks to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_load  # noqa: E402  (the ordinary load, its server and its clients)

HOST = web_load.HOST

#: a big deck: every card of the Original but the kittens and Defuses a thousand times
BIG_DECK = ("set_counts: {attack: 1000, favor: 1000, nope: 1000, shuffle: 1000, skip: 1000, "
            "see_the_future: 1000, tacocat: 1000, cattermelon: 1000, hairy_potato_cat: 1000, "
            "beard_cat: 1000, rainbow_ralphing_cat: 1000}")


def heavy_rule(rule_id: str, name: str, moment: str, depth: int = 6) -> str:
    """A house rule that validates clean and whose ``moment`` trigger (twice over)
    shuffles the draw pile once for every player, ``depth`` loops deep: 2 x 4^6 shuffles
    of an 11,000-card pile in a four-player game (half a minute and more), each one step
    of the budget."""
    body = "shuffle(draw_pile)"
    for number in range(depth):
        body = f"for p{number} in players() {{ {body} }}"
    triggers = "".join(f"""  - id: shuffle_over_and_over_{n}
    on: {moment}
    text: Shuffle the draw pile again and again, once for every player, several times over.
    effect: |
      {body}
""" for n in range(2))
    head = f"format: 1\nkind: edition\nid: {rule_id}\nname: {name}\nextends: original\n"
    return f"{head}{BIG_DECK}\ntriggers:\n{triggers}"


#: each turn's end takes many seconds of rules (the moves are the slow part)
HEAVY_TURNS = heavy_rule("heavy_turns", "Heavy Turns", "turn_end")
#: the deal takes many seconds of rules (making the table is the slow part)
HEAVY_START = heavy_rule("heavy_start", "Heavy Start", "game_start")
#: a house rule that behaves: the Original with eight Nopes
HARMLESS = "format: 1\nkind: edition\nid: nope_party\nname: Nope Party\nextends: original\nset_counts: {nope: 8}\n"


def post(base: str, path: str, body: dict, timeout: float) -> tuple[int | None, dict, float]:
    """POST JSON: (status or None when it did not answer in time, the answer, seconds taken)."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with web_load.DIRECT.open(request, timeout=timeout) as response:
            return response.status, json.load(response), time.perf_counter() - started
    except urllib.error.HTTPError as exc:
        try:
            answer = json.load(exc)
        except ValueError:
            answer = {}
        return exc.code, answer, time.perf_counter() - started
    except (OSError, ValueError) as exc:  # a timeout, or the server went away
        return None, {"error": str(exc)}, time.perf_counter() - started


def upload(base: str, name: str, text: str, timeout: float) -> str:
    status, answer, _ = post(base, "/api/uploads", {"files": [{"name": name, "text": text}]}, timeout)
    if status != 200 or not answer.get("playable"):
        sys.exit(f"{name} was refused ({status}): {answer}")
    return answer["playable"][0]["key"]


def seats(count: int) -> list[str]:
    return ["random"] * count


def make(base: str, key: str, seed: int, timeout: float) -> dict:
    """Make a table of four bots: its outcome (status, room, seconds, error)."""
    status, answer, took = post(base, "/api/rooms", {"ruleset": key, "players": 4, "seats": seats(4),
                                                     "seed": seed}, timeout)
    return {"status": status, "room": answer.get("room"), "seconds": took, "error": answer.get("error")}


async def watch(url: str, stop: float, outcome: dict) -> None:
    """A spectator of an uploaded table (web_load's): the moves it sees, and whether (and
    why) its game stops, in ``outcome``."""
    seen = {"slow_updates": 0, "slow_stopped": 0, "slow_told": {}}
    try:
        await web_load.watch(url, stop, seen)
    except Exception as exc:  # the connection failed or was cut: say so
        outcome["failed"] = f"{type(exc).__name__}: {exc}"
    outcome.update(updates=seen["slow_updates"], told=seen["slow_told"])
    outcome["stopped_after"], outcome["stopped"] = (seen.get("slow_why") or [(None, None)])[0]


async def hostile_part(base: str, args, stop: float) -> dict:
    """The uploaded tables beside the load: made, watched, and their outcomes."""
    keys = await asyncio.gather(*(asyncio.to_thread(upload, base, name, text, 120) for name, text in (
        ("heavy_turns.yaml", HEAVY_TURNS), ("heavy_start.yaml", HEAVY_START), ("nope_party.yaml", HARMLESS))))
    turns, start, harmless = keys
    ws_base = base.replace("http://", "ws://")
    made = await asyncio.gather(
        *(asyncio.to_thread(make, base, turns, args.seed + n, args.request_seconds) for n in range(args.hostile)),
        asyncio.to_thread(make, base, harmless, args.seed, args.request_seconds))
    heavy, kind = list(made[:-1]), made[-1]
    watchers = [watch(f"{ws_base}/ws/{table['room']}", stop, table) for table in made if table["room"]]
    setup = asyncio.to_thread(make, base, start, args.seed, args.request_seconds)
    results = await asyncio.gather(setup, *watchers)
    return {"heavy": heavy, "harmless": kind, "setup": results[0], "start_key": start}


async def everything(base: str, tables: list[dict], args) -> tuple[dict, dict]:
    stop = time.monotonic() + args.seconds
    ping_stats: dict = {"ping": []}
    ordinary, hostile, _ = await asyncio.gather(
        web_load.load(base, tables, args.seconds, args.seed),
        hostile_part(base, args, stop),
        web_load.ping(f"{base.replace('http://', 'ws://')}/ws/{tables[0]['room']}", stop, ping_stats))
    ordinary["ping"] = ping_stats["ping"]
    return ordinary, hostile


def run(args, checkout: str | None) -> None:
    """One run on one server, and its figures printed."""
    data = tempfile.mkdtemp(prefix="kittens-hostile-")
    process, base, lobby = web_load.start_server(data, args.answer_seconds, args.bot_delay, checkout)
    try:
        key = next(e["key"] for e in lobby["rulesets"] if e["name"].startswith("Exploding Kittens (Original"))
        ordinary_seats = ["person", "person", "heuristic", "random"]
        tables = [web_load.make_table(base, key, ordinary_seats, args.seed + i) for i in range(args.tables)]
        cpu = web_load._cpu(process.pid)
        ordinary, hostile = asyncio.run(everything(base, tables, args))
        if cpu is not None:  # the server's own process: the lanes are processes of their own
            ordinary["cpu"] = web_load._cpu(process.pid) - cpu
        # hostile work in flight when the server is told to stop: a second slow table being made
        late: dict = {}
        thread = threading.Thread(target=lambda: late.update(make(base, hostile["start_key"], 7, args.exit_seconds)),
                                  daemon=True)
        thread.start()
        time.sleep(1.0)
        exit_seconds = _stop(process, args.exit_seconds)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    _report(args, ordinary, hostile, exit_seconds)


def _stop(process, most: float) -> float | None:
    """SIGTERM, and the seconds until the server has exited (None: not within ``most``)."""
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(most)
    except Exception:  # subprocess.TimeoutExpired
        return None
    return time.perf_counter() - started


def _report(args, ordinary: dict, hostile: dict, exit_seconds: float | None) -> None:
    latency, pings = ordinary["latency"], ordinary["ping"]
    pct = web_load.percentile
    print(f"{args.tables} ordinary tables ({ordinary['clients']} people-like clients, two bots each) on {HOST}, "
          f"{args.seconds:.0f} s; decisions measured: {len(latency)}; refused: {ordinary['errors'] or 'none'}")
    if latency:
        print(f"  ordinary move: p50 {pct(latency, 0.5):.1f} ms, p95 {pct(latency, 0.95):.1f} ms, "
              f"p99 {pct(latency, 0.99):.1f} ms, max {max(latency):.1f} ms (target: p95 < 10 ms)")
    if ordinary.get("cpu") is not None:
        print(f"  the server process's CPU over the run: {ordinary['cpu']:.1f} s")
    if pings:
        print(f"  ping of an ordinary table: p50 {pct(pings, 0.5):.1f} ms, p90 {pct(pings, 0.9):.1f} ms, "
              f"max {max(pings):.1f} ms ({len(pings)} pings)")
    for number, table in enumerate(hostile["heavy"], 1):
        print(f"  heavy-turns table {number}: {_outcome(table)}")
    setup = hostile["setup"]
    print(f"  heavy-start table: answered {setup['status'] or 'nothing'} after {setup['seconds']:.1f} s"
          + (f" ({_short(setup['error'])})" if setup.get("error") else ""))
    print(f"  harmless uploaded table: {_outcome(hostile['harmless'])}")
    print("  SIGTERM to exit: " + (f"{exit_seconds:.1f} s" if exit_seconds is not None
                                   else f"more than {args.exit_seconds:.0f} s (killed)") + " (target: 5 s)")


def _outcome(table: dict) -> str:
    if table["status"] != 200:
        return f"not made: {table['status'] or 'no answer'} after {table['seconds']:.1f} s ({_short(table['error'])})"
    text = f"made in {table['seconds']:.1f} s, {table.get('updates', 0)} updates seen"
    if table.get("stopped"):
        text += f", its game stopped after {table['stopped_after']:.1f} s: {_short(table['stopped'])}"
    if table.get("told"):
        text += f", told {table['told']}"
    if table.get("failed"):
        text += f", watching failed: {table['failed']}"
    return text


def _short(text, most: int = 110) -> str:
    text = str(text or "")
    return text if len(text) <= most else text[:most] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs")
    parser.add_argument("--hostile", type=int, default=3, help="tables of bots playing the heavy-turns rule")
    parser.add_argument("--answer-seconds", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--request-seconds", type=float, default=90.0, help="how long a hostile request may wait")
    parser.add_argument("--exit-seconds", type=float, default=120.0, help="how long the server may take to exit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--also", action="append", default=[], metavar="CHECKOUT",
                        help="run the same on the kittens of this checkout too, after this one")
    parser.add_argument("--step-budget", type=int, metavar="STEPS",
                        help="the server's step budget per action (KITTENS_STEP_BUDGET; default: the engine's)")
    args = parser.parse_args()
    if args.step_budget is not None:  # the servers started below inherit it
        os.environ["KITTENS_STEP_BUDGET"] = str(args.step_budget)
    print(f"step budget: {os.environ.get('KITTENS_STEP_BUDGET', 'the default')}", flush=True)
    for checkout in [None, *args.also]:
        print(f"== {'this kittens' if checkout is None else checkout}", flush=True)
        run(args, checkout)


if __name__ == "__main__":
    main()
