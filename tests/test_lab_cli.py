"""The lab's commands as a person runs them: `kittens simulate`, `compare`, `sweep`.

Text and JSON output, exit codes (2 for usage errors, with JSON errors under
--format json; 1 for rules that do not compile; 130 on Ctrl-C), the HTML
report, and a real Ctrl-C to a running command whose --out file is resumed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib")

from lab_editions import write_editions

from kittens.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def eds(tmp_path_factory):
    return write_editions(tmp_path_factory.mktemp("labcli"))


def _run(*args):
    return runner.invoke(app, list(args))


def test_simulate_prints_intervals_and_json_gives_every_number(eds):
    text = _run("simulate", eds["fair"], "-p", "3", "-g", "200", "-j", "1")
    assert text.exit_code == 0, text.output
    assert "Who wins (95% CI)" in text.output and "seat fairness: chi-square" in text.output
    assert re.search(r"seat 0 +\d+\.\d% \(\d+\.\d-\d+\.\d%\)", text.output)
    data = json.loads(_run("simulate", eds["fair"], "-p", "3", "-g", "200", "-j", "1", "--format", "json").output)
    summary = data["summary"]
    assert summary["games"] == 200 and len(summary["seats"]) == 3
    assert {"fairness", "first_player", "turns", "decisions", "eliminations", "limits", "bots", "cards"} <= set(summary)
    assert summary["turns"]["quantiles"]["50%"] > 0 and summary["turns"]["histogram"]


def test_compare_says_what_changed_with_p_values(eds):
    result = _run("compare", eds["fair"], eds["long"], "-p", "3", "-g", "300", "-j", "1")
    assert result.exit_code == 0, result.output
    assert re.search(r"games are \d+% longer in turns \(.*95% CI", result.output)
    data = json.loads(_run("compare", eds["fair"], eds["long"], "-p", "3", "-g", "300", "-j", "1",
                           "--format", "json").output)
    metrics = data["comparisons"][0]["metrics"]
    assert all("p_value" in m for m in metrics) and len(data["rulesets"]) == 2


def test_compare_takes_variants_and_shipped_names():
    result = _run("compare", "original", "original@older_printing", "-g", "60", "-j", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [r["label"] for r in data["rulesets"]] == ["original", "original@older_printing"]


def test_sweep_prints_a_curve_and_the_fairest_point():
    result = _run("sweep", "original", "--count", "nope=2..6/2", "-g", "60", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "Seats are fairest at nope=" in result.output
    assert len([line for line in result.output.splitlines() if re.match(r"\s+[246]\s", line)]) == 3
    data = json.loads(_run("sweep", "original", "--set", "hand_size=5..6", "-g", "40", "-j", "1",
                           "-m", "card:nope", "-m", "out:1", "--format", "json").output)
    points = data["curve"]["points"]
    assert [p["value"] for p in points] == [5, 6]
    assert all(p["metrics"]["card:nope"]["value"] > 0 for p in points)
    assert all(p["metrics"]["out:1"]["ci"][0] < p["metrics"]["out:1"]["value"] < p["metrics"]["out:1"]["ci"][1]
               for p in points)


def test_the_report_is_one_self_contained_page(eds, tmp_path):
    page = tmp_path / "report.html"
    result = _run("compare", eds["fair"], eds["long"], "-p", "3", "-g", "100", "-j", "1", "--report", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.count("data:image/png;base64,") >= 3  # seats, game lengths, cards
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)  # nothing fetched
    assert "Report" in text and "games are" in text
    sweep_page = tmp_path / "sweep.html"
    assert _run("sweep", eds["fair"], "-p", "3", "--count", "coin=6..12/6", "-g", "50", "-j", "1",
                "--report", str(sweep_page)).exit_code == 0
    assert sweep_page.read_text(encoding="utf-8").count("data:image/png;base64,") >= 2


@pytest.mark.parametrize("args, message", [
    (["simulate", "no_such_edition"], "no such rule file"),
    (["simulate", "original", "--bots", "genius"], "unknown bot"),
    (["simulate", "original", "--bots", "ismcts:rollout=clever"], "unknown rollout 'clever'"),
    (["compare", "original", "original", "--bots", "ismcts:iterations=0"], "at least 1"),
    (["arena", "original", "--bots", "ismcts:rollout=clever,random"], "unknown rollout 'clever'"),
    (["arena", "original", "--resume"], "--resume continues an --out file"),
    (["simulate", "original", "-p", "9"], "2 to 5 players"),
    (["simulate", "original", "--resume"], "--resume continues an --out file"),
    (["sweep", "original"], "give one of --set"),
    (["sweep", "original", "--count", "nope=8..2"], "must go up"),
    (["compare", "original"], "two rulesets or more"),
    (["sweep", "original", "--count", "nope=2..3", "--metric", "happiness"], "unknown metric"),
    (["compare", "original", "original+"], "is not a ruleset"),
])
def test_usage_errors_exit_2_and_parse_as_json(args, message):
    text = _run(*args, "-g", "5")
    assert text.exit_code == 2 and message in text.output
    result = _run(*args, "-g", "5", "--format", "json")
    assert result.exit_code == 2
    # the CLI convention (clikit.py): error, code and the command that failed
    assert json.loads(result.output) == {"error": json.loads(result.output)["error"], "code": 2,
                                         "command": args[0]}
    assert message in json.loads(result.output)["error"]


def test_a_change_that_breaks_the_rules_exits_1():
    result = _run("sweep", "original", "--set", "hand_size=40..41", "-g", "5", "--format", "json")
    assert result.exit_code == 1
    assert "hand_size=40" in json.loads(result.output)["error"]


def test_ctrl_c_keeps_every_finished_game_and_resume_finishes_the_run(eds, tmp_path):
    out = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "kittens", "simulate", "original", "-g", "100000", "-j", "2",
               "--out", str(out), "--format", "json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 20_000):
        time.sleep(0.2)  # until some games are in the file
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    data = json.loads(stdout)
    kept = data["meta"]["games"]
    assert data["meta"]["interrupted"] and 0 < kept < 100000
    lines = out.read_bytes().splitlines()
    assert len(lines) == kept + 1  # the header, then every finished game: none lost, none doubled
    indexes = [json.loads(line)["i"] for line in lines[1:]]
    assert len(set(indexes)) == kept
    target = max(indexes) + 151  # workers play chunks side by side: the games kept may have gaps
    resumed = subprocess.run([sys.executable, "-m", "kittens", "simulate", "original", "-g", str(target),
                              "-j", "1", "--out", str(out), "--resume", "--format", "json"],
                             capture_output=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr.decode()
    meta = json.loads(resumed.stdout)["meta"]
    assert (meta["resumed"], meta["played"], meta["games"]) == (kept, target - kept, target)
    fresh = json.loads(_run("simulate", "original", "-g", str(target), "-j", "1", "--format", "json").output)
    assert json.loads(resumed.stdout)["summary"] == fresh["summary"]


def _stderr_on_a_terminal(*args) -> tuple:
    """Run kittens with its standard error on a pseudo-terminal (as in a person's shell)
    and its standard output in a pipe: (exit code, stdout, what the terminal showed)."""
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    process = subprocess.Popen([sys.executable, "-m", "kittens", *args], stdout=subprocess.PIPE,
                               stderr=slave, env=env)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        shown += chunk
    stdout = process.stdout.read()
    process.wait(timeout=120)
    os.close(master)
    return process.returncode, stdout, shown.decode("utf-8", "replace")


PLAIN_LINE = re.compile(r"kittens (\w+): ([\d,]+)/([\d,]+) games \((\d+)%\), [\d.,]+ games/s, "
                        r"\d+:\d\d so far(, about \d+:\d\d left)?")


def test_a_progress_bar_on_a_terminal_plain_lines_in_a_pipe_and_none_under_json(eds):
    args = ["simulate", eds["fair"], "-p", "3", "-g", "6000", "-j", "1"]
    code, stdout, shown = _stderr_on_a_terminal(*args)
    assert code == 0 and b"Who wins" in stdout
    assert "games/s" in shown and "left" in shown and "/6000" in shown, shown[-400:]
    code, stdout, shown = _stderr_on_a_terminal(*args, "--format", "json")
    assert code == 0 and json.loads(stdout)["summary"]["games"] == 6000
    assert shown == ""  # nothing drawn under --format json
    # in a pipe (a log, CI): plain lines, a line each time games come back at a gap of 0 s
    env = {**os.environ, "KITTENS_PROGRESS_SECONDS": "0"}
    piped = subprocess.run([sys.executable, "-m", "kittens", *args], capture_output=True, timeout=120,
                           env=env, text=True)
    assert piped.returncode == 0 and "Who wins" in piped.stdout
    lines = piped.stderr.splitlines()
    assert len(lines) >= 2 and all(PLAIN_LINE.fullmatch(line) for line in lines), piped.stderr[-400:]
    assert lines[-1].startswith("kittens simulate: 6,000/6,000 games (100%)")
    assert "\x1b" not in piped.stderr and "\r" not in piped.stderr  # no terminal codes in a log
    quiet = subprocess.run([sys.executable, "-m", "kittens", *args, "--format", "json"], capture_output=True,
                           timeout=120, env=env)
    assert quiet.returncode == 0 and quiet.stderr == b""  # nor anything under --format json


def test_the_arena_says_how_far_it_has_got_in_a_pipe():
    """Issue 41: the README's arena ran for 40 minutes without a word when its output went
    to a log. In one process games are counted in pieces that start at one game and grow
    while a piece takes under a quarter of a second (a search player's stay small)."""
    pytest.importorskip("openskill")
    env = {**os.environ, "KITTENS_PROGRESS_SECONDS": "0"}
    piped = subprocess.run([sys.executable, "-m", "kittens", "arena", "-p", "3", "-g", "12", "--bots",
                            "heuristic,random"], capture_output=True, text=True, timeout=300, env=env)
    assert piped.returncode == 0, piped.stderr
    found = [PLAIN_LINE.fullmatch(line) for line in piped.stderr.splitlines()]
    assert found and all(found), piped.stderr
    done = [int(m.group(2)) for m in found]
    assert {m.group(1) for m in found} == {"arena"} and {m.group(3) for m in found} == {"12"}
    assert done[0] == 1 and done[-1] == 12 and done == sorted(set(done))  # the first game alone


def test_plain_progress_lines_come_every_tenth_or_minute_never_within_the_quiet_gap():
    import io

    from kittens.lab.progress import PlainProgress

    now = [0.0]
    stream = io.StringIO()
    lines = PlainProgress("kittens sweep", stream, quiet=5.0, clock=lambda: now[0])
    for at, done in [(0, 0), (1, 100), (4, 400), (6, 500), (7, 650), (9, 700), (20, 720), (70, 730),
                     (81, 731), (83, 740), (90, 1000)]:
        now[0] = at
        lines(done, 1000)
    lines.close()
    found = map(PLAIN_LINE.fullmatch, stream.getvalue().splitlines())
    shown = [(int(m.group(2).replace(",", "")), m.group(0)) for m in found]
    # none in the first 5 s; 650 comes within 5 s of 500's line, 730 neither a tenth past
    # 720 nor a minute after its line; 731 is a minute after it; 1000 is the end
    assert [done for done, _line in shown] == [500, 720, 731, 1000]
    assert shown[0][1] == "kittens sweep: 500/1,000 games (50%), 83 games/s, 0:06 so far, about 0:06 left"
    quiet = io.StringIO()
    short = PlainProgress("kittens simulate", quiet, quiet=5.0, clock=lambda: now[0])
    for at, done in [(100, 0), (101, 500), (102, 1000)]:
        now[0] = at
        short(done, 1000)
    short.close()
    assert quiet.getvalue() == ""  # a run of a few seconds says nothing


@pytest.mark.parametrize("missing, args, extra", [
    ("scipy", [], "lab"), ("matplotlib", ["--report", "r.html"], "lab"),
    ("distributed", ["--scheduler", "tcp://127.0.0.1:9"], "cluster")])
def test_a_missing_extra_is_named_before_any_game(monkeypatch, missing, args, extra):
    """Without the lab's libraries (a plain `pip install kittens-engine`) the command says which
    extra to install, at once and as a usage error, not as an internal error after the games."""
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now fails
    result = _run("simulate", "original", "-g", "5", "-j", "1", *args, "--format", "json")
    assert result.exit_code == 2, result.output
    error = json.loads(result.output)["error"]
    assert missing in error and f"pip install 'kittens-engine[{extra}]'" in error
    assert "kittens simulate" not in error  # the text form puts the command's name before it, once
    said = _run("simulate", "original", "-g", "5", "-j", "1", *args)
    assert said.output.count("kittens simulate") == 1, said.output


def test_deal_per_rotation_plays_each_deal_from_every_turn_of_the_line_up(tmp_path):
    """--deal-per-rotation: game i is dealt seed + i // players with the line-up turned i
    seats, played exactly as the lab plays that deal and seating by hand."""
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.rules.load import load_edition
    from kittens.lab.play import play_record, seats_for

    out = tmp_path / "games.jsonl"
    result = _run("simulate", "original", "-p", "4", "-g", "12", "-j", "1", "--seed", "5", "--bots",
                  "heuristic,random", "--deal-per-rotation", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "seeds 5-7, each dealt from every turn of the line-up" in result.output
    game = Game(load_edition("original"), 4)
    for line in out.read_text().splitlines()[1:]:
        record = json.loads(line)
        index, found = record["i"], record["r"][0]
        mine = play_record(game, 5 + index // 4, seats_for(["heuristic", "random"], 4, index, True))
        assert found == json.loads(json.dumps(mine)), index
    data = json.loads(_run("simulate", "original", "-g", "8", "-j", "1", "--deal-per-rotation",
                           "--format", "json").output)
    assert data["meta"]["deal_per_rotation"] is True
    both = _run("simulate", "original", "-g", "8", "--deal-per-rotation", "--fixed-seats")
    assert both.exit_code == 2 and "leave out --fixed-seats" in both.output
    # a file of per-rotation games is not resumed as a run of one deal per game
    again = _run("simulate", "original", "-p", "4", "-g", "16", "-j", "1", "--seed", "5", "--bots",
                 "heuristic,random", "--out", str(out), "--resume")
    assert again.exit_code == 2 and "deal_per_rotation" in again.output


def test_a_game_won_on_points_reports_mean_scores_with_intervals():
    rules = os.path.join(os.path.dirname(__file__), "..", "examples", "house-rules", "most_cats.yaml")
    one = json.loads(_run("simulate", rules, "-p", "4", "-g", "120", "-j", "1", "--format", "json").output)
    two = json.loads(_run("simulate", rules, "-p", "4", "-g", "120", "-j", "2", "--format", "json").output)
    scores = one["summary"]["scores"]
    assert [s["seat"] for s in scores] == [0, 1, 2, 3] and all(s["n"] == 120 for s in scores)
    assert all(s["ci"][0] <= s["mean"] <= s["ci"][1] for s in scores)
    assert two["summary"]["scores"] == scores  # the same sums however the games were split
    text = _run("simulate", rules, "-p", "4", "-g", "60", "-j", "1").output
    assert re.search(r"seat 3  mean score \d+\.\d\d \(\d+\.\d-\d+\.\d\)", text)
    plain = json.loads(_run("simulate", "original", "-p", "4", "-g", "20", "-j", "1", "--format", "json").output)
    assert "scores" not in plain["summary"]


@pytest.mark.parametrize("args, played, each", [
    (["simulate", "original", "-g", "30"], 30, ""),
    (["compare", "original", "original@older_printing", "-g", "30"], 60, " (30 under each of 2 rulesets)"),
    (["sweep", "original", "--count", "nope=3..5", "-g", "20"], 60, " (20 at each of 3 values)"),
])
def test_the_games_said_played_are_every_ruleset_s_games(args, played, each):
    """compare plays every seed under each ruleset, sweep under each value: the line that
    says how many games were played counts them all (issue 41: it said one ruleset's)."""
    result = _run(*args, "-j", "1")
    assert result.exit_code == 0, result.output
    assert f"played {played} games{each} on 1 worker" in result.output
    data = json.loads(_run(*args, "-j", "1", "--format", "json").output)
    assert data["meta"]["games_played"] == played and data["meta"]["played"] == int(args[-1])


@pytest.mark.parametrize("command, extra", [
    ("simulate", []), ("sweep", ["--count", "nope=3..4"]), ("compare", ["original"]),
    ("arena", ["--bots", "heuristic,random"])])
def test_every_lab_command_takes_rules_at_variant(command, extra):
    """lab.md: a ruleset is a file, a name, RULES@VARIANT or RULES+EXPANSION in every lab
    command (issue 41: simulate and sweep took the variant only from --variant)."""
    if command == "arena":
        pytest.importorskip("openskill")
    args = [command, "original@beginner", *extra, "-g", "8", "-j", "1", "--format", "json"]
    result = _run(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    variants = [arm["variant"] for arm in data["meta"].get("rulesets") or [data["meta"].get("ruleset")]]
    assert "beginner" in variants
    wrong = _run(*[arg.replace("@beginner", "@beginers") for arg in args])
    assert wrong.exit_code == 2
    error = json.loads(wrong.output)["error"]
    assert "no variant 'beginers'; did you mean 'beginner'?" in error and "older_printing" in error


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    if int(stat.read().rpartition(")")[2].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads the process table in /proc")
def test_kill_9_of_the_main_process_takes_its_workers_and_resource_tracker_with_it(tmp_path):
    """Issue 41: after kill -9 of `kittens simulate` its workers played on and then waited
    for ever on their pipes (and the resource tracker with them)."""
    out = tmp_path / "games.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "kittens", "simulate", "original", "-g", "1000000",
                                "-j", "2", "--out", str(out), "--format", "json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 20_000):
            time.sleep(0.2)  # the workers are playing: games come back
        children = _children(process.pid)
        assert len(children) >= 3, children  # two workers and the resource tracker
    finally:
        process.kill()
        process.wait(timeout=30)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.1)
    left = [pid for pid in children if _alive(pid)]
    for pid in left:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert left == [], "still running 5 s after the main process was killed"


UNNOPEABLE_SKIP = """format: 1
kind: edition
id: unnopeable_skip
name: Unnopeable Skip
extends: original
patch_cards: {skip: {nopeable: false}}
"""


def test_compare_reports_every_card_figure_that_changed_and_ends_with_a_verdict(tmp_path):
    """Issue 41: a Skip nobody may Nope went from Noped 13% of its plays to never, and
    compare said only that the cards were played about as often; it now says each card
    figure that changed, the cards where none did, and one closing verdict, and a
    difference it cannot tell from zero is "no detectable change", never "unchanged"."""
    rule = tmp_path / "unnopeable_skip.yaml"
    rule.write_text(UNNOPEABLE_SKIP)
    args = ["compare", "original", str(rule), "-g", "200", "-j", "1"]
    text = _run(*args)
    assert text.exit_code == 0, text.output
    out = text.output
    # on the card's line, or on a line of its own under the card's name when more changed
    skip = re.search(r"^  - 'skip' is( |\n(?:      .*\n)*?      )Noped \d\.\d\d -> 0\.00 times a game, "
                     r"\d+\.\d% -> 0\.0% of its plays \(-\d\.\d\d; 95% CI -\d\.\d\d to -\d\.\d\d, p < 0\.001\)$",
                     out, re.M)
    assert skip, out
    assert re.search(r"^  - no detectable change in any figure of .*'attack'.* \(played, Noped, spent in "
                     r"combos, drawn, in hand at the end: see --format json\)$", out, re.M), out
    assert "unchanged" not in out and "about as often" not in out
    assert re.search(r"seat \d's win rate: no detectable change \(", out)
    closing = out.split("\n\n")[-2].replace("\n", " ")
    assert closing.startswith("In short, over 200 games of each, at 95% confidence (p < 0.05, each figure "
                              f"on its own): {rule} changes "), closing
    assert "'skip' (Noped" in closing and "; no detectable change in " in closing and closing.endswith(".")
    data = json.loads(_run(*args, "--format", "json").output)
    comparison = data["comparisons"][0]
    assert comparison["verdict"] == closing
    noped = next(m for m in comparison["metrics"] if m["metric"] == "noped of skip")
    assert noped["significant"] and noped["share_a"] > 0 and noped["share_b"] == 0 and noped["mean_b"] == 0
    figures = {m["figure"] for m in comparison["metrics"] if m.get("card") == "attack"}
    assert figures == {"plays", "noped", "in_combos", "drawn", "held_at_end"}
    assert not any(m["metric"] == "noped of nope" for m in comparison["metrics"])  # not counted


def test_compare_of_a_ruleset_with_itself_finds_no_detectable_change():
    result = _run("compare", "original", "original", "-g", "30", "-j", "1")
    assert result.exit_code == 0, result.output
    closing = result.output.split("\n\n")[-2].replace("\n", " ")
    assert closing == ("In short, over 30 games of each, at 95% confidence (p < 0.05, each figure on its own): "
                       "no detectable change against original [0] in any figure; a change smaller than the "
                       "intervals above would not show in this many games.")


def test_simulate_shows_a_dash_for_the_nopes_it_does_not_count():
    """lab.md: answers cancelled inside a chain of Nopes are not counted, so a card only
    ever played in answer (a Nope) has no Noped share: "—", not "0.0%"."""
    result = _run("simulate", "original", "-g", "40", "-j", "1")
    assert result.exit_code == 0, result.output
    row = next(line.split() for line in result.output.splitlines() if line.startswith("  nope "))
    assert row[3] == "—", row
    skip = next(line.split() for line in result.output.splitlines() if line.startswith("  skip "))
    assert skip[3].endswith("%")
    data = json.loads(_run("simulate", "original", "-g", "40", "-j", "1", "--format", "json").output)
    nope = next(c for c in data["summary"]["cards"] if c["card"] == "nope")
    assert nope["plays"] > 0 and nope["noped_share"] is None and nope["noped_counted"] is False
    curve = json.loads(_run("sweep", "original", "--count", "nope=4..5", "-g", "20", "-j", "1", "-m", "noped:nope",
                            "-m", "noped:skip", "--format", "json").output)["curve"]
    assert all(p["metrics"]["noped:nope"]["value"] is None for p in curve["points"])
    assert all(p["metrics"]["noped:skip"]["value"] is not None for p in curve["points"])
