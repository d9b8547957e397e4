"""Game logs (issue 11): written a game at a time, replayable from any folder, and
checked whole: a log cut short, a hostile header or a file that is no log at all
gets a clear verdict, never a false "verified" and never an internal error."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from typer.testing import CliRunner

import kittens
from kittens.adapters import replay as replay_module
from kittens.cli import app
from kittens.interpreter.engine import simulate
from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition

ORIGINAL = str(ROOT / "editions" / "original.yaml")
# the installed Original: where kittens is installed from a checkout (as in CI), the
# checkout's copy lies outside the rule folders replay reads from elsewhere
SHIPPED_ORIGINAL = str(kittens.EDITIONS_DIR / "original.yaml")
runner = CliRunner()


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


HOUSE_RULE = """format: 1
kind: edition
id: nope_party
name: Nope Party
extends: original
set_counts: {nope: 8}
"""


def _house_rule(path="house.yaml") -> None:
    Path(path).write_text(HOUSE_RULE, encoding="utf-8")


def _headers(path) -> list[dict]:
    return [record for record in _lines(path) if record["type"] == "game"]


# -- replay from any folder ----------------------------------------------------
def test_a_log_of_shipped_rules_given_by_name_replays_from_any_folder(tmp_path, monkeypatch):
    played, elsewhere = tmp_path / "played", tmp_path / "elsewhere"
    played.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(played)
    made = runner.invoke(app, ["run", "original", "-g", "2", "--with", "imploding",
                               "--log", "games.jsonl"])
    assert made.exit_code == 0, made.output
    for folder in (elsewhere, Path("/")):
        monkeypatch.chdir(folder)
        result = runner.invoke(app, ["replay", str(played / "games.jsonl")])
        assert result.exit_code == 0, result.output
        assert "2 of 2 game(s) replayed identically" in result.output


def test_a_log_of_relative_paths_replays_from_any_folder(tmp_path, monkeypatch):
    """Rule files given relative to the folder the run started in: an edition, a
    house rule's own file, an expansion folder given by its bare name."""
    played, elsewhere = tmp_path / "played", tmp_path / "elsewhere"
    played.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(played)
    assert runner.invoke(app, ["new", "expansion", "Space Cats"]).exit_code == 0
    _house_rule()
    runs = [["run", "house.yaml", "--with", "space_cats", "-g", "2", "--log", "a.jsonl"],
            ["run", os.path.relpath(SHIPPED_ORIGINAL), "--with", "space_cats/", "-g", "2", "--log", "b.jsonl"]]
    for args in runs:
        made = runner.invoke(app, args)
        assert made.exit_code == 0, made.output
    monkeypatch.chdir(elsewhere)
    for name in ("a.jsonl", "b.jsonl"):
        result = runner.invoke(app, ["replay", str(played / name)])
        assert result.exit_code == 0, result.output
        assert "2 of 2 game(s) replayed identically" in result.output


def test_a_played_game_replays_from_any_folder_and_a_stopped_one_is_incomplete(tmp_path, monkeypatch):
    played, elsewhere = tmp_path / "played", tmp_path / "elsewhere"
    played.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(played)
    whole = runner.invoke(app, ["play", "original", "-p", "2", "--seed", "3", "--log", "whole.jsonl"],
                          input="1\n" * 400)
    assert whole.exit_code == 0 and "Game over" in whole.output
    stopped = runner.invoke(app, ["play", "original", "-p", "2", "--seed", "3", "--log", "part.jsonl"],
                            input="1\n" * 5 + "q\n")
    assert stopped.exit_code == 0 and "Stopped" in stopped.output
    assert _headers("part.jsonl")[0]["bots"] == ["person", "heuristic"]
    monkeypatch.chdir(elsewhere)
    result = runner.invoke(app, ["replay", str(played / "whole.jsonl")])
    assert result.exit_code == 0 and "1 of 1 game(s) replayed identically" in result.output
    result = runner.invoke(app, ["replay", str(played / "part.jsonl")])
    assert result.exit_code == 1 and "game 1 (seed 3): INCOMPLETE" in result.output


def test_the_header_names_each_rule_file_as_given_and_where_it_was_found(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    log = tmp_path / "x.jsonl"
    made = runner.invoke(app, ["run", "editions/original.yaml", "--with", "barking",
                               "--log", str(log)])
    assert made.exit_code == 0, made.output
    header = _headers(log)[0]
    assert header["edition"] == "editions/original.yaml"
    assert header["edition_path"] == ORIGINAL
    assert header["with"] == ["barking"]
    # a name is looked up among the shipped files, wherever kittens is installed
    assert header["with_paths"] == [os.path.realpath(kittens.EDITIONS_DIR / "barking.yaml")]


def test_a_log_without_the_recorded_paths_still_replays_beside_its_rules(tmp_path, monkeypatch):
    """Logs written before the header recorded absolute paths name their files relative
    to the folder they were played in; such a log kept beside its rules replays."""
    monkeypatch.chdir(tmp_path)
    _house_rule()
    assert runner.invoke(app, ["run", "house.yaml", "-g", "2", "--log", "old.jsonl"]).exit_code == 0
    records = _lines("old.jsonl")
    for record in records:
        record.pop("edition_path", None)
        if record["type"] == "game":  # nor a number in the run and a check, added later still
            record.pop("number", None)
            record.pop("check", None)
    Path("old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    monkeypatch.chdir("/")
    result = runner.invoke(app, ["replay", str(tmp_path / "old.jsonl")])
    assert result.exit_code == 0, result.output


def test_replay_rules_points_at_moved_rule_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _house_rule()
    assert runner.invoke(app, ["run", "house.yaml", "-g", "2", "--log", "x.jsonl"]).exit_code == 0
    Path("moved").mkdir()
    os.rename("house.yaml", "moved/renamed.yaml")
    lost = runner.invoke(app, ["replay", "x.jsonl"])
    assert lost.exit_code == 2
    assert "house.yaml" in lost.output and "--rules" in lost.output
    found = runner.invoke(app, ["replay", "x.jsonl", "--rules", "moved/renamed.yaml"])
    assert found.exit_code == 0, found.output
    assert "2 of 2 game(s) replayed identically" in found.output
    wrong = runner.invoke(app, ["replay", "x.jsonl", "--rules", "original"])
    assert wrong.exit_code == 1
    assert "rule files have changed" in wrong.output


# -- a header is untrusted: its names are never opened as arbitrary paths --------
def _hostile_log(tmp_path, **fields) -> Path:
    """A real one-game log whose header is then given ``fields``."""
    log = tmp_path / "real.jsonl"
    assert runner.invoke(app, ["run", SHIPPED_ORIGINAL, "-p", "2", "--seed", "7", "--log", str(log)]).exit_code == 0
    records = _lines(log)
    records[0].update(fields)
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text("".join(json.dumps(r) + "\n" for r in records))
    return hostile


def _targets(tmp_path) -> dict:
    disguised = tmp_path / "rules.txt"  # the Original under a name that is no rule file
    shutil.copy(ORIGINAL, disguised)
    link = tmp_path / "link.yaml"
    link.symlink_to("/dev/zero")
    secret = tmp_path / "secret.yaml"  # a .yaml name pointing at a file that is not one
    secret.symlink_to(disguised)
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    return {"passwd": "/etc/passwd", "zero": "/dev/zero", "stdin": "/dev/stdin",
            "disguised": str(disguised), "link": str(link), "secret": str(secret),
            "fifo": str(fifo), "folder": str(tmp_path)}


@pytest.mark.parametrize("target", ["passwd", "zero", "stdin", "disguised", "link", "secret",
                                    "fifo", "folder"])
def test_a_hostile_header_cannot_make_replay_open_a_path(tmp_path, target):
    """Each header names a file that is not a regular .yaml file, as the edition (both
    as given and as found) or as an expansion; replay refuses it, exit 2. ("disguised"
    is the Original itself: were it read, the game would verify.)"""
    path = _targets(tmp_path)[target]
    for fields in ({"edition": path, "edition_path": path},
                   {"with": [path], "with_paths": [path]}):
        log = _hostile_log(tmp_path, **fields)
        if target in ("fifo", "stdin"):  # opening these would hang, not fail: a child, timed
            done = subprocess.run([sys.executable, "-m", "kittens", "replay", str(log)],
                                  cwd=tmp_path, capture_output=True, text=True, timeout=20,
                                  stdin=subprocess.PIPE)
            code, output = done.returncode, done.stdout + done.stderr
        else:
            result = runner.invoke(app, ["replay", str(log)])
            code, output = result.exit_code, result.output
        assert code == 2, (fields, output)
        assert "verified" not in output and "Traceback" not in output
        assert "hostile.jsonl:1:" in output and "not found" in output


# -- a log cut short is incomplete, never verified -------------------------------
@pytest.fixture(scope="module")
def small_log(tmp_path_factory) -> bytes:
    """One short two-player game (141 lines)."""
    log = tmp_path_factory.mktemp("small") / "small.jsonl"
    assert runner.invoke(app, ["run", ORIGINAL, "-p", "2", "--seed", "7", "--log", str(log)]).exit_code == 0
    return log.read_bytes()


def test_the_whole_small_log_is_verified(small_log, tmp_path):
    log = tmp_path / "whole.jsonl"
    log.write_bytes(small_log)
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 0 and "game 1 (seed 7): verified" in result.output


def test_a_log_cut_at_any_line_end_is_incomplete(small_log, tmp_path):
    """Every line end but the file's own, through the library (sharing the compiled
    edition); every tenth through the command."""
    ends = [index + 1 for index, byte in enumerate(small_log) if byte == ord("\n")]
    assert len(ends) > 100
    log, editions = tmp_path / "cut.jsonl", {}
    for lines, cut in enumerate(ends[:-1], 1):
        log.write_bytes(small_log[:cut])
        message = f"cut.jsonl:{lines}: the log stops after line {lines}, before the game's end"
        [result] = replay_module.replay_log(str(log), editions=editions)
        assert not result.verified and result.mismatch is None, (lines, result)
        assert result.game == 1 and message in result.incomplete
        if lines % 10 == 1:
            shown = runner.invoke(app, ["replay", str(log)])
            assert shown.exit_code == 1, (lines, shown.output)
            assert "verified" not in shown.output, (lines, shown.output)
            assert f"game 1 (seed 7): INCOMPLETE: {log}:{lines}: " in shown.output
            assert "0 of 1 game(s) replayed identically; 1 incomplete" in shown.output


def test_a_log_cut_inside_a_line_is_incomplete(small_log, tmp_path):
    ends = [0] + [index + 1 for index, byte in enumerate(small_log) if byte == ord("\n")]
    log, editions = tmp_path / "cut.jsonl", {}
    for line in range(1, len(ends)):
        start, end = ends[line - 1], ends[line]
        for cut in (start + 1, (start + end) // 2, end - 1):  # end - 1: all but the line end
            log.write_bytes(small_log[:cut])
            message = f"cut.jsonl:{line}: the log ends in the middle of line {line}"
            [result] = replay_module.replay_log(str(log), editions=editions)
            assert not result.verified and message in result.incomplete, (line, cut, result)
        if line % 20 == 1 or line == len(ends) - 1:
            shown = runner.invoke(app, ["replay", str(log)])
            assert shown.exit_code == 1, (line, shown.output)
            assert "verified" not in shown.output and "game 1" in shown.output
            assert f"INCOMPLETE: {log}:{line}: the log ends in the middle of line {line}" in shown.output


def test_a_cut_in_the_second_game_leaves_the_first_verified(tmp_path):
    log = tmp_path / "two.jsonl"
    assert runner.invoke(app, ["run", ORIGINAL, "-p", "2", "-g", "2", "--seed", "7",
                               "--log", str(log)]).exit_code == 0
    lines = log.read_text().splitlines(keepends=True)
    second = next(i for i, line in enumerate(lines) if i and '"type":"game"' in line)
    log.write_text("".join(lines[:second + 20]))
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert "game 1 (seed 7): verified" in result.output
    assert "game 2 (seed 8): INCOMPLETE" in result.output
    assert "1 of 2 game(s) replayed identically; 1 incomplete" in result.output


def test_events_after_the_end_or_a_changed_event_are_a_mismatch(small_log, tmp_path):
    log = tmp_path / "x.jsonl"
    lines = small_log.decode().splitlines(keepends=True)
    log.write_text("".join(lines) + lines[-2])  # one event more after game_over
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1 and "MISMATCH" in result.output and f"line {len(lines) + 1}" in result.output
    moved = json.loads(lines[5])
    moved["at"] = 99
    log.write_text("".join(lines[:5]) + json.dumps(moved) + "\n" + "".join(lines[6:]))
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1 and "event 5 (line 6) differs" in result.output


def test_a_game_may_hold_only_so_many_events(small_log, tmp_path, monkeypatch):
    monkeypatch.setattr(replay_module, "MAX_EVENTS", 50)
    log = tmp_path / "long.jsonl"
    log.write_bytes(small_log)
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 2
    assert "long.jsonl:52:" in result.output and "more than 50 events" in result.output


# -- files that are no log: a clear error, bounded time and memory ---------------
# A small, fresh process that runs the command and writes its child's peak RSS to a
# file: a child forked from the test process itself would report the test's own size
# (Linux keeps the high-water mark across exec).
_MEASURE = """import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
"""


def _measured(args, cwd, timeout=20):
    """Run kittens in a child process; (exit code, stdout, stderr, seconds, peak RSS in MiB)."""
    out, err, peak = cwd / "out.txt", cwd / "err.txt", cwd / "peak.txt"
    started = time.monotonic()
    with open(out, "w") as stdout, open(err, "w") as stderr:
        child = subprocess.Popen([sys.executable, "-c", _MEASURE, str(peak), sys.executable, "-m",
                                  "kittens", *args], cwd=cwd, stdout=stdout, stderr=stderr,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        pytest.fail(f"kittens {' '.join(args)} did not end within {timeout} s")
    kib = int(peak.read_text()) / (1024 if sys.platform == "darwin" else 1)  # bytes on macOS
    return child.returncode, out.read_text(), err.read_text(), time.monotonic() - started, kib / 1024


def _hostile_file(tmp_path, kind) -> tuple[str, str]:
    """A file that is no log, and what the error must say."""
    path = tmp_path / f"{kind}.jsonl"
    if kind == "zero":
        return "/dev/zero", "/dev/zero: not a regular file"
    if kind == "folder":
        return str(tmp_path), "is a folder"
    if kind == "fifo":
        os.mkfifo(path)
        return str(path), "not a regular file"
    if kind == "sparse":  # 10 GB of zero bytes, one endless line
        with open(path, "wb") as handle:
            handle.truncate(10 * 1024 ** 3)
        return str(path), f"{path.name}:1:1: line 1 is longer than"
    header = b'{"type": "game", "edition": "original", "players": 2}\n'
    content = {
        "long_line": header + b'{"type": "move", "x": "' + b"a" * (3 << 20) + b'"}\n',
        "digits": header + b'{"type": "move", "x": ' + b"9" * 5000 + b"}\n",
        "deep": header + b"[" * 200_000 + b"]" * 200_000 + b"\n",
        "nested": header + b'{"type": "move", "x": ' + b"[" * 500 + b"]" * 500 + b"}\n",
        "not_utf8": header + b'{"type": "move", "x": "\xff\xfe"}\n',
        "many_lines": header + b'{"type": "move"}\n' * 1_100_000,
    }[kind]
    path.write_bytes(content)
    message = {"long_line": "long_line.jsonl:2:1: line 2 is longer than",
               "digits": "digits.jsonl:2:", "deep": "deep.jsonl:2:", "nested": "nested.jsonl:2:",
               "not_utf8": "not_utf8.jsonl:2:", "many_lines": "many_lines.jsonl:"}[kind]
    return str(path), message


@pytest.mark.parametrize("kind", ["zero", "folder", "fifo", "sparse", "long_line", "digits", "deep",
                                  "nested", "not_utf8", "many_lines"])
def test_replay_of_a_file_that_is_no_log(tmp_path, kind):
    path, message = _hostile_file(tmp_path, kind)
    code, out, err, seconds, peak = _measured(["replay", path], tmp_path)
    assert code in (1, 2), (code, out, err)
    assert message in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert "verified" not in out
    assert seconds < 15, seconds
    assert peak < 150, f"peak RSS {peak:.0f} MiB"


# -- run: games written as they end; Ctrl-C and kill -9 ---------------------------
@pytest.fixture
def children():
    """Child processes a test starts, killed at its end if the test left them running."""
    started = []
    yield started
    for child in started:
        if child.poll() is None:
            child.kill()
            child.communicate()


def _start_run(children, tmp_path, *extra):
    log = tmp_path / "games.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-m", "kittens", "run", "original", "-g", "100000", "--log", str(log), *extra],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a child of a shell without job control may inherit an ignored SIGINT
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children.append(child)
    deadline = time.monotonic() + 20
    while not log.exists() or log.read_bytes().count(b'"type":"game_over"') < 5:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the log held no finished game after 20 s"
        time.sleep(0.02)
    return child, log


def _game_overs(data: bytes) -> int:
    return sum(b'"type":"game_over"' in line for line in data.splitlines(keepends=True)
               if line.endswith(b"\n"))


def test_kill_9_loses_at_most_the_game_in_progress(tmp_path, children):
    child, log = _start_run(children, tmp_path)
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=20)
    data = log.read_bytes()
    finished = _game_overs(data)
    assert finished >= 5
    # the finished games are exactly what an uninterrupted run of as many games writes
    again = tmp_path / "again"
    again.mkdir()
    whole = subprocess.run([sys.executable, "-m", "kittens", "run", "original", "-g", str(finished),
                            "--log", str(log)], cwd=tmp_path, capture_output=True, timeout=60)
    assert whole.returncode == 0
    complete = log.read_bytes()
    assert data.startswith(complete)
    rest = data[len(complete):]  # a game cut while it was written, if the kill came then
    # add the start of the next game, as a kill during its write would leave it
    log.write_bytes(complete + (rest or b'{"bots":["random","random","random","random"],"dig'))
    code, out, err, _, _ = _measured(["replay", str(log)], again)
    assert code == 1, (out, err)
    assert f"{finished} of {finished + 1} game(s) replayed identically; 1 incomplete" in out
    assert f"game {finished + 1}" in out and "INCOMPLETE" in out
    log.write_bytes(complete)
    code, out, err, _, _ = _measured(["replay", str(log)], again)
    assert code == 0 and f"{finished} of {finished} game(s) replayed identically" in out


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_stops_with_the_summary_of_the_finished_games(tmp_path, children, as_json):
    child, log = _start_run(children, tmp_path, *(["--json"] if as_json else []))
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=20)
    assert child.returncode == 130, (out, err)
    assert "Traceback" not in err and "interrupted" in err
    if as_json:
        summary = json.loads(out)
        games = summary["games"]
        assert summary["interrupted"] is True and sum(summary["wins"].values()) == games
    else:
        games = int(re.search(r"^(\d+) games? of Exploding Kittens", out, re.M).group(1))
        assert "mean turns per game" in out
    assert games >= 5
    data = log.read_bytes()
    assert data.endswith(b"\n") and _game_overs(data) == games == data.count(b'"type":"game",')
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert f"{games} of {games} game(s) replayed identically" in replayed.output


def test_run_series_is_interrupted_between_games_and_keeps_every_finished_one(monkeypatch):
    """Ctrl-C arriving while a game is written: that game is written whole and counted,
    and the series stops there."""
    game = Game(load_edition(ORIGINAL), 2)
    writes = []

    class Log:
        def write(self, text):
            writes.append(text)
            if len(writes) == 3:
                os.kill(os.getpid(), signal.SIGINT)  # arrives in the middle of the write

        def flush(self):
            pass

    try:
        summary = simulate.run_games(game, games=10, seed=0, bots=["random"], log=Log())
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped from run_games")
    assert summary.interrupted and summary.games == 3 and len(writes) == 3
    assert all(text.endswith("\n") and '"type":"game_over"' in text for text in writes)


@pytest.mark.parametrize("where", ["folder", "missing", "under_a_file", "fifo", "device"])
@pytest.mark.parametrize("command", ["run", "play"])
def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path, where, command):
    (tmp_path / "file").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    target = {"folder": tmp_path, "missing": tmp_path / "no" / "x.jsonl",
              "under_a_file": tmp_path / "file" / "x.jsonl", "fifo": tmp_path / "fifo",
              "device": Path("/dev/null")}[where]
    result = runner.invoke(app, [command, ORIGINAL, "-p", "2", "--log", str(target)], input="")
    assert result.exit_code == 2, result.output
    assert f"cannot write the log {target}" in result.output
    assert "Your hand" not in result.output  # said before a person starts playing
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "file"]  # nothing left behind


def test_a_log_that_stops_taking_writes_is_said_plainly(tmp_path, monkeypatch):
    log = tmp_path / "x.jsonl"
    real, calls = os.write, []

    def write(fd, data):
        calls.append(fd)
        if len(calls) > 3:
            raise OSError(28, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    result = runner.invoke(app, ["run", ORIGINAL, "-p", "2", "-g", "10", "--log", str(log)])
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert f"cannot write the log {log}: No space left on device" in result.output
    assert f"{log} holds the 3 game(s) finished before" in result.output
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "3 of 3 game(s) replayed identically" in replayed.output


def test_a_run_that_fails_before_a_game_ends_leaves_an_old_log_alone(tmp_path, write):
    rules = str(ROOT / "rulebook" / "original.yaml")
    write("chain.yaml", f"format: 1\nkind: cards\nuses: [{rules}]\ncards:\n"
          "  - id: chain_cat\n    title: Chain Cat\n    text: Drawing it makes you draw again.\n"
          "    when: never\n    on_draw: draw(me)\n")
    edition = write("chain_edition.yaml", f"""format: 1
kind: edition
id: chain
name: chain test
players: {{min: 2, max: 2}}
include: [{rules}, chain.yaml]
deck: {{chain_cat: 400, exploding_kitten: 1}}
setup:
  - deal: {{count: 0}}
turn: {{draw: "draw(me) end_turn()"}}
win: last_standing
""")
    log = tmp_path / "old.jsonl"
    log.write_text("an older log\n")
    result = runner.invoke(app, ["run", edition, "-p", "2", "--log", str(log)])
    assert result.exit_code == 1 and "draw again 100 times" in result.output
    assert log.read_text() == "an older log\n"


def test_run_keeps_a_record_per_game_only_when_it_prints_it(monkeypatch):
    game = Game(load_edition(ORIGINAL), 2)
    seen = []
    summary = simulate.run_games(game, games=30, seed=0, bots=["random"], keep_results=False,
                                 on_game=lambda seed, state: seen.append((seed, state.winner)))
    assert summary.results == [] and [seed for seed, _ in seen] == list(range(30))
    kept = simulate.run_games(game, games=30, seed=0, bots=["random"])
    assert [(seed, winner) for seed, winner, _ in kept.results] == seen
    summaries = []
    real = simulate.run_games

    def spy(*args, **kwargs):
        summaries.append(real(*args, **kwargs))
        return summaries[-1]

    monkeypatch.setattr(simulate, "run_games", spy)
    for each, lines in (("--no-each", 0), ("--each", 30)):
        result = runner.invoke(app, ["run", ORIGINAL, "-p", "2", "-g", "30", each])
        assert result.exit_code == 0 and result.output.count(" wins after ") == lines
        assert summaries[-1].results == []


# -- golden transcripts: what the command writes today --------------------------
GOLDEN = ROOT / "tests" / "golden"


def test_the_command_still_writes_the_golden_games(tmp_path, monkeypatch):
    """regenerate.sh's commands, run in the golden folder, write the committed events
    byte for byte; the header differs only by the fields added since (where the rule
    files were found, and so its check)."""
    monkeypatch.chdir(GOLDEN)
    script = (GOLDEN / "regenerate.sh").read_text()
    commands = re.findall(r"^kittens (run .*) --log (\S+)$", script, re.M)
    assert len(commands) >= 3
    for args, name in commands:
        log = tmp_path / name
        assert runner.invoke(app, [*args.split(), "--log", str(log)]).exit_code == 0
        produced, committed = log.read_text().splitlines(), (GOLDEN / name).read_text().splitlines()
        assert produced[1:] == committed[1:], name
        header, old = json.loads(produced[0]), json.loads(committed[0])
        assert header.pop("edition_path") == ORIGINAL
        assert header.pop("check") != old.pop("check")  # it covers edition_path too
        assert header == old


def test_lines_of_a_log_are_written_exactly_as_the_json_module_writes_them():
    """orjson writes the log; what it writes must not differ by a byte from json.dumps
    (compact, sorted keys, non-ASCII escaped), or old logs would stop replaying."""
    from kittens.interpreter.engine.events import to_json
    from kittens.interpreter.engine.logwriter import dumps_lines

    events = [{"type": "move", "card": "defuse", "secret": {"card": 0b101}, "at": 3},
              {"type": "chose", "value": "caf\u00e9", "seat": 1, "only": 2},
              {"type": "turn", "number": 10 ** 12, "owed": 1, "ok": True, "none": None}]
    expected = "\n".join(json.dumps(to_json(e), separators=(",", ":"), sort_keys=True) for e in events)
    assert dumps_lines(events) == expected
    assert dumps_lines(events[:1] + events[2:]) == "\n".join(expected.split("\n")[::2])


@pytest.mark.parametrize("events", [
    [],
    [{"type": "one"}],
    # the separator between events also inside a string, and between objects in a list
    [{"type": "a", "text": "},{"}, {"type": "b"}],
    [{"type": "a", "list": [{"x": 1}, {"y": 2}]}, {"type": "b", "secret": {"card": 3}}],
    [{"type": "a", "empty": [{}, {}]}, {"type": "b", "only": 1}, {"type": "c", "text": "}\n{"}],
], ids=["none", "one", "separator-in-text", "objects-in-a-list", "empty-objects"])
def test_a_game_written_at_once_splits_into_exactly_its_events(events):
    """dumps_lines writes a game's events in one call and cuts the list at its separators;
    text that looks like a separator must not cut an event in two."""
    from kittens.interpreter.engine.logwriter import dumps, dumps_lines

    written = dumps_lines(events)
    assert written == "\n".join(dumps(event) for event in events)
    assert [json.loads(line) for line in written.splitlines()] == \
        [json.loads(dumps(event)) for event in events]
