"""The Python package against the damas command line, on small generated databases.

Run by ctest with DAMAS_BINARY (the damas executable) and PYTHONPATH (build/python) set. Each
variant's 2-3 piece tables and rule tables are generated into a scratch folder; positions come
from `damas unindex`; every probe, best and error message is compared with what `damas probe`
and `damas best --json` print for the same input, and the rule value of each move that `best`
gives (the engine's root probe) with `probe` of the position after it (the rule-aware probe).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import damas

DAMAS = os.environ["DAMAS_BINARY"]
VARIANTS = [
    "english",
    "international",
    "brazilian",
    "russian",
    "portuguese",
    "italian",
    "turkish",
    "english-giveaway",
]
# Classes of 2 and 3 pieces (wm wk bm bk) and indexes in them.
CLASSES = ["0201", "0102", "1101", "0111", "1002", "0210"]
INDEXES = [0, 37, 211]

OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}


def run(*args):
    return subprocess.run([DAMAS, *args], capture_output=True, text=True, check=False)


def cli_json(*args):
    r = run(*args, "--json")
    if r.returncode != 0:
        raise AssertionError(f"damas {' '.join(args)}: {r.stderr}")
    return json.loads(r.stdout)


def cli_error(*args):
    """The message of a failing command, without "damas: error: "."""
    r = run(*args)
    assert r.returncode == 2, (args, r.returncode, r.stdout, r.stderr)
    last = r.stderr.strip().splitlines()[-1]
    prefix = "damas: error: "
    assert last.startswith(prefix), last
    return last[len(prefix):]


def pieces(fen):
    """The pieces of a FEN, e.g. ["K18", "K22", "K5"]."""
    return [p for side in fen.split(":")[1:] for p in side[1:].split(",") if p]


def draw_distance(value, dtw):
    """A draw's distance as the package gives it: None (the CLI's JSON may say 0 or null)."""
    return None if value == "draw" else dtw


class Database:
    folder = None
    positions = {}  # variant -> FENs


def setUpModule():
    Database.folder = tempfile.mkdtemp(prefix="damas-python-test-")
    for v in VARIANTS:
        for command in ("gen", "gen-rules"):
            r = run(command, "-v", v, "-p", "3", "-d", Database.folder, "--quiet")
            assert r.returncode == 0 or "no move-limit draw rules" in r.stderr, r.stderr
        if v == "international":
            r = run("gen-rules", "-v", v, "-p", "3", "-d", Database.folder, "--quiet",
                    "--edition", "fmjd")
            assert r.returncode == 0, r.stderr
        fens = []
        for c in CLASSES:
            for i in INDEXES:
                r = run("unindex", "-v", v, "-c", c, "-i", str(i), "--json")
                if r.returncode == 0:
                    fens.append(json.loads(r.stdout)["fen"])
        assert len(fens) >= 10, (v, fens)
        Database.positions[v] = fens


def tearDownModule():
    shutil.rmtree(Database.folder, ignore_errors=True)


class AgreesWithCli(unittest.TestCase):
    def check_probe(self, tb, variant, fen, extra=(), **counts):
        got = tb.probe(fen, **counts)
        want = cli_json("probe", "-v", variant, "-d", Database.folder, *extra, fen)
        self.assertEqual(got.value, want["value"], fen)
        self.assertEqual(got.dtw, draw_distance(want["value"], want["dtw"]), fen)
        self.assertEqual(got.fen, want["fen"])
        if "rules" in want:
            r = want["rules"]
            self.assertIsNotNone(got.rules, fen)
            self.assertEqual(got.rules.value, r["value"], fen)
            self.assertEqual(got.rules.dtr, draw_distance(r["value"], r["dtr"]), fen)
            self.assertEqual(got.rules.count, r["count"], fen)
            self.assertEqual(got.rules.plies_left, r["plies_left"], fen)
            self.assertEqual(got.rules.exact, r["exact"], fen)
        else:
            self.assertIsNone(got.rules, fen)
        return got

    def check_best(self, tb, variant, fen):
        got = tb.best(fen)
        want = cli_json("best", "-v", variant, "-d", Database.folder, fen)["moves"]
        self.assertEqual([m.move for m in got], [m["move"] for m in want], fen)
        for g, w in zip(got, want):
            self.assertEqual(g.value, w["value"], (fen, g.move))
            self.assertEqual(g.dtw, draw_distance(w["value"], w["dtw"]), (fen, g.move))
            self.assertEqual(g.fen_after, w["fen_after"], (fen, g.move))
        return got

    def test_probe_and_best_agree_with_the_cli(self):
        for v in VARIANTS:
            tb = damas.Tablebase(Database.folder, variant=v)
            checked = 0
            for fen in Database.positions[v]:
                with self.subTest(variant=v, fen=fen):
                    self.check_probe(tb, v, fen)
                    moves = self.check_best(tb, v, fen)
                    if moves:  # a Black-to-move position too
                        self.check_probe(tb, v, moves[-1].fen_after)
                    checked += 1
            self.assertGreaterEqual(checked, 10)

    def test_probe_under_rules_agrees_with_the_cli(self):
        tb = damas.Tablebase(Database.folder, variant="english")
        for fen in Database.positions["english"]:
            for since in (0, 40, 75, 80):
                self.check_probe(
                    tb, "english", fen, ("--plies-since-capture", str(since)),
                    plies_since_capture=since)
        tb = damas.Tablebase(Database.folder, variant="international")
        for fen in Database.positions["international"][:6]:
            self.check_probe(tb, "international", fen, ("--edition", "fmjd"), edition="fmjd")
            self.check_probe(
                tb, "international", fen, ("--plies-in-ending", "20"), plies_in_ending=20)

    def test_some_rule_values_differ_from_the_pure_ones(self):
        # Else the comparisons under the rules above could not fail.
        tb = damas.Tablebase(Database.folder, variant="english")
        differ = [
            fen for fen in Database.positions["english"]
            if tb.probe(fen, plies_since_capture=75).rules.value != tb.probe(fen).value]
        self.assertTrue(differ)

    def test_the_rule_value_of_each_move_is_the_probe_after_it(self):
        # best's rule values come from the root probe, probe's from the rule-aware probe. In a
        # kings-only position a move that captures nothing adds a ply to both counts.
        for v in ("english", "international", "russian"):
            tb = damas.Tablebase(Database.folder, variant=v)
            seen = 0
            for fen in Database.positions[v]:
                if not all(p.startswith("K") for p in pieces(fen)):
                    continue
                for since in (0, 30, 70):
                    for m in tb.best(fen, plies_since_capture=since, plies_in_ending=since):
                        if len(pieces(m.fen_after)) != len(pieces(fen)):
                            continue  # a capture restarts the counts
                        after = tb.probe(m.fen_after, plies_since_capture=since + 1,
                                         plies_in_ending=since + 1)
                        self.assertIsNotNone(m.rules, (v, fen, m))
                        if m.rules.count is None:  # the count had run out at fen: drawn
                            self.assertEqual((m.rules.value, after.rules.plies_left), ("draw", 0))
                            continue
                        self.assertEqual(m.rules.value, OPPOSITE[after.rules.value], (v, fen, m))
                        if after.rules.dtr is not None:
                            self.assertEqual(m.rules.dtr, after.rules.dtr + 1, (v, fen, m))
                        self.assertEqual(m.rules.count, after.rules.count, (v, fen, m))
                        self.assertEqual(m.rules.plies_left, after.rules.plies_left, (v, fen, m))
                        seen += 1
            self.assertGreater(seen, 20, v)

    def test_line_follows_best(self):
        tb = damas.Tablebase(Database.folder, variant="english")
        for fen in Database.positions["english"]:
            start = tb.probe(fen)
            line = tb.line(fen)
            if start.value == "draw" or start.dtw == 0:
                self.assertEqual(line, [])
                continue
            self.assertEqual(len(line), start.dtw, fen)
            position = fen
            for step in line:
                first = tb.best(position)[0]
                self.assertEqual((step.move, step.value, step.dtw),
                                 (first.move, first.value, first.dtw))
                position = step.fen_after
            self.assertEqual(tb.probe(position).dtw, 0)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.tb = damas.Tablebase(Database.folder, variant="english")

    def expect_cli_message(self, exception, call, *cli_args):
        want = cli_error("probe", "-v", "english", "-d", Database.folder, *cli_args)
        with self.assertRaises(exception) as caught:
            call()
        self.assertEqual(str(caught.exception), want)

    def test_bad_fens_give_the_cli_message(self):
        for fen in ["", "xx", "W:WK18,K22:BK55", "W:W18,18:B5", "W:W1:B5", "Q:W18:B5",
                    "W:W18:B5\nrm -rf", "W:WK18,K22:B"]:
            with self.subTest(fen=fen):
                self.expect_cli_message(ValueError, lambda: self.tb.probe(fen), fen)
                with self.assertRaises(ValueError):
                    self.tb.best(fen)
                with self.assertRaises(ValueError):
                    self.tb.line(fen)

    def test_bad_counts_and_editions_give_the_cli_message(self):
        fen = "W:WK18,K22:BK5"
        self.expect_cli_message(ValueError, lambda: self.tb.probe(fen, edition="xx"),
                                "--edition", "xx", fen)
        self.expect_cli_message(
            ValueError, lambda: self.tb.probe(fen, plies_since_capture=-1),
            "--plies-since-capture=-1", fen)
        with self.assertRaisesRegex(ValueError, "forcada is a portuguese rule"):
            self.tb.probe(fen, forcada_plies=3)
        with self.assertRaisesRegex(ValueError, "forcada is a portuguese rule"):
            self.tb.probe(fen, forcada_side="white")

    def test_unknown_variant(self):
        want = cli_error("probe", "-v", "chess", "-d", Database.folder, "W:W1:B5")
        with self.assertRaises(ValueError) as caught:
            damas.Tablebase(Database.folder, variant="chess")
        self.assertEqual(str(caught.exception), want)

    def test_missing_class_and_folder(self):
        fen = "W:WK18,K22,K23:BK5"  # 4 pieces: not generated
        self.expect_cli_message(damas.NotInDatabase, lambda: self.tb.probe(fen), fen)
        self.assertTrue(issubclass(damas.NotInDatabase, LookupError))
        with self.assertRaisesRegex(FileNotFoundError, "no database folder"):
            damas.Tablebase(os.path.join(Database.folder, "none"))
        with self.assertRaisesRegex(FileNotFoundError, "no italian-giveaway tables"):
            damas.Tablebase(Database.folder, variant="italian-giveaway")

    def test_the_start_position_gives_the_cli_message(self):
        start = "B:W21-32:B1-12"
        self.expect_cli_message(damas.NotInDatabase, lambda: self.tb.probe(start), start)
        with self.assertRaisesRegex(damas.NotInDatabase, "^too many pieces: 24 "):
            self.tb.probe(start)

    def test_paths_as_str_bytes_and_path_like(self):
        import pathlib
        for folder in (Database.folder, os.fsencode(Database.folder),
                       pathlib.Path(Database.folder)):
            with self.subTest(folder=folder):
                tb = damas.Tablebase(folder, variant="english")
                self.assertEqual(tb.probe("W:WK18,K22:BK5").value, "win")
                self.assertEqual(os.fspath(tb.folder), Database.folder)

    def test_paths_that_are_not_utf8(self):
        """A folder named in bytes that are not UTF-8: found or not found, never a
        UnicodeDecodeError; messages show those bytes escaped (\\xff) as the CLI does, and the
        repr names the folder as os.fsdecode does, so that it reads back."""
        missing = os.fsencode(Database.folder) + b"/none-\xff"
        with self.assertRaises(FileNotFoundError) as caught:
            damas.Tablebase(missing)
        want = cli_error("probe", "-v", "english", "-d", os.fsdecode(missing), "W:W18:B5")
        self.assertTrue(want.startswith(str(caught.exception).split(" (")[0] + " ("), want)
        self.assertIn("none-\\xff", str(caught.exception))
        folder = tempfile.mkdtemp(prefix="damas-python-\udcff-")  # b"\xff" on disk
        try:
            self.assertEqual(run("gen", "-v", "english", "-p", "3", "-d", folder,
                                 "--quiet").returncode, 0)
            tb = damas.Tablebase(os.fsencode(folder), variant="english")
            self.assertEqual(eval(repr(tb), {"Tablebase": damas.Tablebase}).folder, tb.folder)
            p = tb.probe("W:WK18,K22:BK5")
            self.assertIn("\\xff", p.rules_missing)
            with self.assertRaises(damas.MissingRuleTable) as caught:
                tb.probe("W:WK18,K22:BK5", plies_since_capture=3)
            want = cli_error("probe", "-v", "english", "-d", folder, "--plies-since-capture",
                             "3", "W:WK18,K22:BK5")
            self.assertEqual(str(caught.exception), want)
            game = tb.annotate('[FEN "W:WK18,K22:BK5"]\n1... 18-14 *\n').games[0]
            self.assertIn("\\xff", game.rules_missing)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_a_folder_that_cannot_be_looked_at_is_an_os_error(self):
        long_name = "x" * 5000
        with self.assertRaises(OSError) as caught:
            damas.Tablebase(long_name)
        self.assertNotIsInstance(caught.exception, FileNotFoundError)
        self.assertEqual(str(caught.exception),
                         cli_error("probe", "-v", "english", "-d", long_name, "W:W18:B5"))
        self.assertIn("File name too long", str(caught.exception))

    def test_a_game_type_damas_does_not_play(self):
        path = os.path.join(Database.folder, "garbage.pdn")
        text = '[GameType "garbage"]\n1. 11-15 *\n'
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        with self.assertRaises(ValueError) as e:
            self.tb.annotate(text)
        self.assertEqual(str(e.exception), cli_error("annotate", "-v", "english", "-d",
                                                     Database.folder, path))
        self.assertIn("is not a game type damas plays (english is GameType 21)",
                      str(e.exception))
        self.assertEqual(len(self.tb.annotate('[GameType "21,B,8,8,N1,0"]\n1. 11-15 *').games),
                         1)

    def test_missing_rule_tables(self):
        folder = tempfile.mkdtemp(prefix="damas-python-norules-")
        try:
            self.assertEqual(run("gen", "-v", "english", "-p", "3", "-d", folder,
                                 "--quiet").returncode, 0)
            tb = damas.Tablebase(folder, variant="english")
            fen = "W:WK18,K22:BK5"
            p = tb.probe(fen)
            self.assertEqual(p.value, "win")
            self.assertIsNone(p.rules)
            self.assertIn("damas gen-rules", p.rules_missing)
            self.assertTrue(all(m.rules is None for m in tb.best(fen)))
            want = cli_error("probe", "-v", "english", "-d", folder,
                             "--plies-since-capture", "3", fen)
            with self.assertRaises(damas.MissingRuleTable) as caught:
                tb.probe(fen, plies_since_capture=3)
            self.assertEqual(str(caught.exception), want)
            with self.assertRaises(damas.MissingRuleTable):
                tb.best(fen, plies_since_capture=3)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


class Threads(unittest.TestCase):
    def test_threads_give_the_same_answers(self):
        tb = damas.Tablebase(Database.folder, variant="international", cache_mib=1)
        fens = Database.positions["international"]
        want = [(repr(tb.probe(f)), repr(tb.best(f))) for f in fens]
        failures = []

        def work(seed):
            for round_ in range(20):
                for k in range(len(fens)):
                    i = (k * 7 + seed + round_) % len(fens)
                    got = (repr(tb.probe(fens[i])), repr(tb.best(fens[i])))
                    if got != want[i]:
                        failures.append((fens[i], got, want[i]))

        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


class Gil(unittest.TestCase):
    def test_a_probe_lets_other_python_threads_run(self):
        # One call that stays in C++ for about a second: while it runs, the main thread keeps
        # running Python. Were the GIL held, the main thread would stop for the whole call.
        tb = damas.Tablebase(Database.folder, variant="english")
        fen = "W:WK18,K22:BK5"
        # The fastest of 5 timings, so that a pause of the loaded host while timing does not
        # make the call itself too short.
        fastest_ns = min(tb._time_cpp_probe(fen, 1000) for _ in range(5))
        calls = max(1000, int(1.0e9 / fastest_ns))
        started = threading.Event()

        def work():
            started.set()
            tb._time_cpp_probe(fen, calls)

        worker = threading.Thread(target=work)
        begin = time.perf_counter()
        worker.start()
        started.wait()
        longest_gap, last = 0.0, begin
        while worker.is_alive():
            now = time.perf_counter()
            longest_gap, last = max(longest_gap, now - last), now
        worker.join()
        call = time.perf_counter() - begin
        self.assertGreater(call, 0.3)
        self.assertLess(longest_gap, call / 2, (longest_gap, call))

    def test_a_probe_that_reads_the_disk_lets_other_python_threads_run(self):
        # A real probe that must open a table file: its rule table is a named pipe, whose open
        # blocks until a writer opens it. A child process probes in a thread while its main
        # thread, running Python, opens the pipe for writing: possible only if the probe let go
        # of the GIL to read the disk (else the child hangs and the timeout fails the test).
        folder = tempfile.mkdtemp(prefix="damas-python-gil-")
        try:
            os.mkdir(os.path.join(folder, "english"))
            for name in os.listdir(os.path.join(Database.folder, "english")):
                if name != "0201.dtr":
                    shutil.copy(os.path.join(Database.folder, "english", name),
                                os.path.join(folder, "english", name))
            os.mkfifo(os.path.join(folder, "english", "0201.dtr"))
            child = subprocess.run(
                [sys.executable, "-c", PIPE_PROBE, folder], capture_output=True, text=True,
                timeout=60, check=False)
            self.assertEqual(child.returncode, 0, child.stderr)
            self.assertEqual(child.stdout.split(), ["opened", "TableError"], child.stderr)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


# The child of test_a_probe_that_reads_the_disk_lets_other_python_threads_run.
PIPE_PROBE = """
import errno, os, sys, threading, time
import damas
tb = damas.Tablebase(sys.argv[1], variant="english")
outcome = []
def work():
    try:
        tb.probe("W:WK18,K19:BK1")  # 0201: the pipe
        outcome.append("answered")
    except damas.TableError:
        outcome.append("TableError")
worker = threading.Thread(target=work)
worker.start()
pipe = os.path.join(sys.argv[1], "english", "0201.dtr")
while True:  # no reader yet: ENXIO
    try:
        fd = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
        break
    except OSError as e:
        assert e.errno == errno.ENXIO, e
        time.sleep(0.001)
print("opened")
os.close(fd)
worker.join()
print(outcome[0])
"""


class ProbeMany(unittest.TestCase):
    def test_probe_many_is_probe_of_each(self):
        for variant in ("english", "portuguese"):
            tb = damas.Tablebase(Database.folder, variant=variant, cache_mib=1)
            fens = Database.positions[variant]
            for counts in ({}, {"plies_since_capture": 7}):
                got = tb.probe_many(fens, **counts)
                self.assertEqual([repr(g) for g in got],
                                 [repr(tb.probe(f, **counts)) for f in fens])
        self.assertEqual(tb.probe_many([]), [])

    def test_probe_many_raises_the_first_failure(self):
        tb = damas.Tablebase(Database.folder, variant="english")
        fens = Database.positions["english"]
        with self.assertRaises(ValueError) as e:
            tb.probe_many([fens[0], "W:W99:B1", fens[1]])
        with self.assertRaises(ValueError) as want:
            tb.probe("W:W99:B1")
        self.assertEqual(str(e.exception), str(want.exception))
        with self.assertRaises(damas.NotInDatabase):
            tb.probe_many([fens[0], "W:WK1,K2,K3:BK10,K11"])
        with self.assertRaises(ValueError):
            tb.probe_many(fens, plies_since_capture=-1)


class Annotate(unittest.TestCase):
    """tb.annotate against damas annotate --json (itself checked against probe and best in
    tests/probe/test_annotate_cli.cpp) and tb.probe with the counts of the game."""

    def compose(self, tb):
        """From a won 2 kings against 1 king, White's best moves until White can throw the win
        away (by best's pure values), that move, then best moves: the PDN text."""
        fen = "W:WK18,K19:BK1"
        moves, thrown = [], False
        position = fen
        for _ in range(30):
            best = tb.best(position)
            if not best:
                break
            chosen = best[0]
            if not thrown and position.startswith("W") and best[0].value == "win":
                drawing = [m for m in best if m.value == "draw"]
                if drawing:
                    chosen, thrown = drawing[0], True
            moves.append(chosen.move)
            position = chosen.fen_after
            if thrown and len(moves) > 8:
                break
        self.assertTrue(thrown)
        text = f'[White "Ann"]\n[Black "Bob"]\n[FEN "{fen}"]\n\n1...'
        for i, m in enumerate(moves):
            if i % 2 == 1:
                text += f" {i // 2 + 2}."
            text += " " + m
        return text + " *\n"

    def test_annotate_agrees_with_the_cli_and_probe(self):
        tb = damas.Tablebase(Database.folder, variant="english")
        text = self.compose(tb)
        path = os.path.join(Database.folder, "game.pdn")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n" + text)  # two games
        want = cli_json("annotate", "-v", "english", "-d", Database.folder, path)
        got = tb.annotate(text + "\n" + text)
        self.assertEqual(got.pdn, want["pdn"])
        self.assertEqual(len(got.games), 2)
        self.assertEqual(got.games[1].number, 2)
        game, w = got.games[0], want["games"][0]
        self.assertEqual(game.summary, w["summary"])
        self.assertEqual(game.players, "Ann vs Bob")
        self.assertEqual(game.tags, [("White", "Ann"), ("Black", "Bob"),
                                     ("FEN", "W:WK18,K19:BK1")])
        self.assertEqual(game.entered, 0)
        self.assertEqual(game.start.value, w["start"]["value"])
        self.assertIn("?", [m.mark for m in game.moves])
        for m, wm in zip(game.moves, w["moves"], strict=True):
            self.assertEqual((m.number, m.move, m.fen_after), (wm["number"], wm["move"],
                                                               wm["fen_after"]))
            self.assertEqual(m.mark, wm["mark"] or "")
            counts = wm["counts_after"]
            probe = tb.probe(m.fen_after, plies_since_capture=counts["plies_since_capture"],
                             plies_in_ending=counts["plies_in_ending"])
            self.assertEqual((m.after.value, m.after.dtw), (probe.value, probe.dtw))
            self.assertEqual((m.after.rules.value, m.after.rules.dtr),
                             (probe.rules.value, probe.rules.dtr))

    def test_bad_games_raise_value_error_with_the_cli_message(self):
        tb = damas.Tablebase(Database.folder, variant="english")
        path = os.path.join(Database.folder, "illegal.pdn")
        text = '[White "Cy"]\n1. 11-15 22-17 2. 15-22 *\n'
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        with self.assertRaises(ValueError) as e:
            tb.annotate(text)
        self.assertEqual(str(e.exception), cli_error("annotate", "-v", "english", "-d",
                                                     Database.folder, path))
        self.assertIn("game 1 (Cy vs ?), move 2 (Black", str(e.exception))
        with self.assertRaises(ValueError) as e:
            tb.annotate("1. 11-15 {never closed")
        self.assertEqual(str(e.exception), "line 1: a comment '{' is not closed by '}'")
        with self.assertRaises(ValueError):
            tb.annotate("1. 11-15 *", edition="fmjd")


class Stubs(unittest.TestCase):
    def test_the_type_stubs_name_what_the_module_has(self):
        import ast
        import inspect

        stubs = os.path.join(os.path.dirname(damas.__file__), "__init__.pyi")
        tree = ast.parse(open(stubs, encoding="utf-8").read())
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
        self.assertEqual(sorted(c.name for c in classes), sorted(damas.__all__))
        for c in classes:
            cls = getattr(damas, c.name)
            stubbed = {f.name for f in c.body if isinstance(f, ast.FunctionDef)}
            for name in stubbed:
                self.assertTrue(hasattr(cls, name), (c.name, name))
            public = {n for n, _ in inspect.getmembers(cls) if not n.startswith("_")}
            exception_members = set(dir(OSError)) | set(dir(LookupError))
            self.assertEqual(public - stubbed - exception_members, set(), c.name)


class Reprs(unittest.TestCase):
    def test_reprs(self):
        tb = damas.Tablebase(Database.folder, variant="english", cache_mib=8)
        self.assertEqual(repr(tb),
                         f"Tablebase({Database.folder!r}, variant='english', cache_mib=8)")
        p = tb.probe("W:WK18,K22:BK5")
        self.assertTrue(repr(p).startswith("Probe(fen='W:WK18,K22:BK5', value='win', dtw="))
        self.assertIn("Rules(value='win'", repr(p))
        self.assertTrue(repr(tb.best("W:WK18,K22:BK5")[0]).startswith("Move(move="))


if __name__ == "__main__":
    unittest.main()
