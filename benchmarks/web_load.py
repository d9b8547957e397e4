"""Load on the web table: many tables of bots and people-like clients over loopback
websockets, and the latency from a person's decision to the update it brings.

    python benchmarks/web_load.py [--tables 50] [--seconds 60] [--people 2] [--bots 2]
                                  [--slow-tables 6] [--also OTHER_CHECKOUT]

Starts `kittens serve` as its own process on 127.0.0.1 (a free port, a fresh data
folder), makes the tables through the JSON API, and connects each person-seat as
a websocket client that thinks a little (0.1 to 0.6 s) and then presses a button:
mostly Draw on its turn, mostly Pass in a reaction window, at random otherwise.
Bots play on the server, each after a short delay, and windows stay open for
their full time unless everyone has answered. A client measures, for each of its
decisions, the time from sending it to receiving the update it causes.

Prints the tables, clients, decisions measured, games finished, refusals, and the
50th, 95th and 99th percentile and the worst latency (target: p95 < 50 ms). The
run is bounded: it stops after --seconds, whatever is left unfinished, and only
ever talks to 127.0.0.1.

``--slow-tables N`` adds N tables of four bots playing an uploaded house rule
whose Skip does a second or more of work (2,000 shuffles of a 500-card pile),
as a hostile or careless upload would. The step budget charges a shuffle a step
per card and stops such a Skip at once; run with KITTENS_STEP_BUDGET raised
(say 1000000000000) to have it stand for work the language cannot see coming.
A spectator of each counts its updates (does it still get played?), and a
spectator of an ordinary table pings ten times a second (does the server still
answer at once?). The latency figures are the ordinary tables' only.

``--also PATH`` runs the same load, in the same run, on the kittens of another
checkout (say, one before a change), one after the other: a before/after
comparison on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy

from websockets.asyncio.client import connect  # noqa: E402  (after the path is set up above)

HOST = "127.0.0.1"


#: a house rule whose Skip does about half a second of work, under the step budget
SLOW_RULE = """\
format: 1
kind: edition
id: slow_skip
name: Slow Skip
extends: original
set_counts: {skip: 250, tacocat: 250}
patch_cards:
  skip:
    text: Shuffle the draw pile once per card in it and player, then end your turn.
    effect: |
      for a in draw_pile {
        for p in players() { shuffle(draw_pile) }
      }
      end_turn()
"""


def start_server(data: str, answer_seconds: float, bot_delay: float, checkout: str | None = None):
    env = dict(os.environ)
    if checkout is None:
        kittens = shutil.which("kittens")
        command = [kittens] if kittens else [sys.executable, "-m", "kittens"]
    else:  # the package of another checkout, found first on the path (a folder inside data)
        top = os.path.join(data, "other")
        os.makedirs(top)
        os.symlink(os.path.abspath(checkout), os.path.join(top, "kittens"))
        env["PYTHONPATH"] = top + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-m", "kittens"]
    process = subprocess.Popen(command + ["serve", "--host", HOST, "--port", "0", "--data",
                                          os.path.join(data, "serve"), "--format", "json",
                                          "--answer-seconds", str(answer_seconds), "--bot-delay", str(bot_delay)],
                               stdout=subprocess.PIPE, text=True, env=env)
    line = process.stdout.readline()
    try:
        port = json.loads(line)["port"]
    except (ValueError, KeyError):
        process.kill()
        sys.exit(f"the server did not start: {line!r}")
    base = f"http://{HOST}:{port}"
    for _ in range(200):  # the lobby answers once the rooms are loaded
        try:
            with DIRECT.open(base + "/api/lobby", timeout=2) as response:
                return process, base, json.load(response)
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit("the server did not answer")


def upload_slow_rule(base: str) -> str:
    """Upload SLOW_RULE: its lobby key."""
    body = json.dumps({"files": [{"name": "slow_skip.yaml", "text": SLOW_RULE}]}).encode()
    request = urllib.request.Request(base + "/api/uploads", data=body, headers={"Content-Type": "application/json"})
    with DIRECT.open(request, timeout=120) as response:
        result = json.load(response)
    if not result["playable"]:
        sys.exit(f"the slow rule was refused: {result['diagnostics']}")
    return result["playable"][0]["key"]


def make_table(base: str, key: str, seats: list[str], seed: int) -> dict:
    body = json.dumps({"ruleset": key, "players": len(seats), "seats": seats, "seed": seed}).encode()
    request = urllib.request.Request(base + "/api/rooms", data=body, headers={"Content-Type": "application/json"})
    with DIRECT.open(request, timeout=30) as response:
        return json.load(response)


class Person:
    """One person-seat: waits for a prompt, thinks, presses a button, times the answer."""

    def __init__(self, url: str, token: str, rng: random.Random, stats: dict, stop: float) -> None:
        self.url, self.token, self.rng, self.stats, self.stop = url, token, rng, stats, stop

    def choose(self, prompt: dict) -> int:
        labels = [option["label"] for option in prompt["options"]]
        if prompt["kind"] == "window":
            return 0 if self.rng.random() < 0.85 else self.rng.randrange(len(labels))
        if prompt["kind"] == "action" and "Draw a card" in labels and self.rng.random() < 0.7:
            return labels.index("Draw a card")
        return self.rng.randrange(len(labels))

    async def run(self) -> None:
        async with connect(self.url, max_size=1 << 22, proxy=None) as ws:
            # as the page does: names, presence and chat too
            await ws.send(json.dumps({"type": "hello", "token": self.token, "social": True}))
            sent_at, kind = None, None  # when an act was sent, and for which kind of prompt
            while time.monotonic() < self.stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, self.stop - time.monotonic()))
                except asyncio.TimeoutError:
                    return
                message = json.loads(raw)
                if sent_at is not None and message["type"] in ("update", "error"):
                    took = (time.perf_counter() - sent_at) * 1000
                    self.stats["latency"].append(took)
                    self.stats["by_kind"].setdefault(kind, []).append(took)
                    sent_at = None
                if message["type"] == "error":
                    self.stats["errors"][message["code"]] = self.stats["errors"].get(message["code"], 0) + 1
                    continue
                if message["type"] != "update":
                    continue
                if message["view"]["finished"]:
                    self.stats["finished"] += 1
                    return
                prompt = message["prompt"]
                if prompt is None:
                    continue
                await asyncio.sleep(self.rng.uniform(0.1, 0.6))  # a person thinks
                if time.monotonic() >= self.stop:
                    return
                sent_at, kind = time.perf_counter(), prompt["kind"]
                await ws.send(json.dumps({"type": "act", "prompt": prompt["id"], "choice": self.choose(prompt)}))


async def watch(url: str, stop: float, stats: dict) -> None:
    """A spectator of a slow table: counts its updates and notes whether its game stopped
    (and, in ``slow_why``, after how many seconds and why)."""
    started = time.monotonic()
    async with connect(url, max_size=1 << 22, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        stopped = False
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "update":
                stats["slow_updates"] += 1
                if message.get("error") and not stopped:
                    stopped = True
                    stats["slow_stopped"] += 1
                    stats.setdefault("slow_why", []).append((time.monotonic() - started, message["error"]))
            elif message["type"] == "error":
                stats["slow_told"][message["code"]] = stats["slow_told"].get(message["code"], 0) + 1


async def ping(url: str, stop: float, stats: dict) -> None:
    """A spectator of an ordinary table that pings ten times a second: the pong's delay."""
    async with connect(url, max_size=1 << 22, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < stop:
            await asyncio.sleep(0.1)
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            while time.monotonic() < stop + 5:
                if json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"] == "pong":
                    stats["ping"].append((time.perf_counter() - sent) * 1000)
                    break


async def load(base: str, tables: list[dict], seconds: float, seed: int, slow: list[dict] = ()) -> dict:
    stats = {"latency": [], "errors": {}, "finished": 0, "by_kind": {}, "ping": [], "slow_updates": 0,
             "slow_stopped": 0, "slow_told": {}}
    stop = time.monotonic() + seconds
    ws_base = base.replace("http://", "ws://")
    people = []
    for number, table in enumerate(tables):
        for seat in table["seats"]:
            if seat["link"]:
                token = seat["link"].split("#seat=")[1]
                rng = random.Random(f"{seed}/{number}/{seat['seat']}")
                people.append(Person(f"{ws_base}/ws/{table['room']}", token, rng, stats, stop))
    others = [watch(f"{ws_base}/ws/{table['room']}", stop, stats) for table in slow]
    if slow:
        others.append(ping(f"{ws_base}/ws/{tables[0]['room']}", stop, stats))
    results = await asyncio.gather(*(person.run() for person in people), *others, return_exceptions=True)
    results = results[:len(people)]
    stats["failed_clients"] = sum(isinstance(r, BaseException) for r in results)
    stats["clients"] = len(people)
    return stats


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--people", type=int, default=2, help="person-seats per table")
    parser.add_argument("--bots", type=int, default=2, help="bot seats per table")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs")
    parser.add_argument("--answer-seconds", type=float, default=1.5)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow-tables", type=int, default=0,
                        help="tables of four bots playing an uploaded house rule whose Skip is slow")
    parser.add_argument("--also", action="append", default=[], metavar="CHECKOUT",
                        help="run the same load on the kittens of this checkout too, after this one")
    args = parser.parse_args()
    for checkout in [None, *args.also]:
        print(f"== {'this kittens' if checkout is None else checkout}")
        run(args, checkout)


def run(args, checkout: str | None) -> None:
    """One load on one server, and its figures printed."""
    data = tempfile.mkdtemp(prefix="kittens-load-")
    process, base, lobby = start_server(data, args.answer_seconds, args.bot_delay, checkout)
    try:
        key = next(e["key"] for e in lobby["rulesets"] if e["name"].startswith("Exploding Kittens (Original"))
        seats = ["person"] * args.people + [("heuristic", "random")[i % 2] for i in range(args.bots)]
        started = time.perf_counter()
        tables = [make_table(base, key, seats, args.seed + i) for i in range(args.tables)]
        slow = []
        if args.slow_tables:
            slow_key = upload_slow_rule(base)
            slow = [make_table(base, slow_key, ["random"] * 4, args.seed + i) for i in range(args.slow_tables)]
        made = time.perf_counter() - started
        cpu_before = _cpu(process.pid)
        stats = asyncio.run(load(base, tables, args.seconds, args.seed, slow))
        cpu = _cpu(process.pid) - cpu_before
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    latency = stats["latency"]
    print(f"{args.tables} tables ({args.people} people-like clients and {args.bots} bots each), "
          f"{stats['clients']} websocket clients on {HOST}, {args.seconds:.0f} s, made in {made:.1f} s")
    if slow:
        print(f"  {len(slow)} slow tables of four bots beside them: {stats['slow_updates']} updates watched, "
              f"{stats['slow_stopped']} games stopped, told: {stats['slow_told'] or 'nothing'}")
    if stats["ping"]:
        pings = stats["ping"]
        print(f"  ping of an ordinary table: p50 {percentile(pings, 0.5):.1f} ms, p90 {percentile(pings, 0.9):.1f} ms, "
              f"max {max(pings):.1f} ms ({len(pings)} pings)")
    print(f"  decisions measured: {len(latency)}; games finished: {stats['finished'] // max(1, args.people)} "
          f"(of {args.tables}); refused: {stats['errors'] or 'none'}; clients failed: {stats['failed_clients']}")
    if latency:
        print(f"  latency from a decision to its update: p50 {percentile(latency, 0.5):.1f} ms, "
              f"p95 {percentile(latency, 0.95):.1f} ms, p99 {percentile(latency, 0.99):.1f} ms, "
              f"max {max(latency):.1f} ms, mean {statistics.mean(latency):.1f} ms (target: p95 < 50 ms)")
        print("  by kind of decision: " + ", ".join(
            f"{kind} p95 {percentile(values, 0.95):.1f} ms ({len(values)})"
            for kind, values in sorted(stats["by_kind"].items(), key=lambda item: -len(item[1]))))
    if cpu is not None:
        print(f"  server CPU: {cpu:.1f} s over the run ({100 * cpu / args.seconds:.0f}% of one core)")


def _cpu(pid: int) -> float | None:
    """The process's CPU seconds so far (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


if __name__ == "__main__":
    main()
