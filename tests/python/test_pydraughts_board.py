"""tb.probe(board) and tb.best(board) with a pydraughts Board, through a test double of it.

pydraughts is not installable here (no PyPI), so FakeBoard stands for draughts.Board with the
attributes damas reads, named as pydraughts' draughts/core/variant.py names them: variant (its
variant names: "standard", "antidraughts", "english", ...), initial_fen, move_stack (Move
objects whose pdn_move is the move in the variant's notation) and the fen property (the
position now). The counts damas derives from the moves are checked against the counts the test
keeps itself and states to tb.probe(fen, plies_since_capture=...).

Run by ctest with DAMAS_BINARY and PYTHONPATH set, like test_python.py.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import damas

DAMAS = os.environ["DAMAS_BINARY"]


class FakeMove:
    """pydraughts' Move, as far as damas reads it."""

    def __init__(self, pdn_move):
        self.pdn_move = pdn_move
        self.hub_move = pdn_move


class FakeBoard:
    """pydraughts' Board (draughts.Board), as far as damas reads it."""

    def __init__(self, variant, fen):
        self.variant = variant
        self.initial_fen = fen
        self.move_stack = []
        self.fens = [fen]

    @property
    def fen(self):
        return self.fens[-1]

    def push(self, move, fen_after):
        self.move_stack.append(FakeMove(move))
        self.fens.append(fen_after)


class Database:
    folder = None


def setUpModule():
    Database.folder = tempfile.mkdtemp(prefix="damas-pydraughts-test-")
    for command in ("gen", "gen-rules"):
        r = subprocess.run([DAMAS, command, "-v", "english", "-p", "3", "-d", Database.folder,
                            "--quiet"], capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr


def tearDownModule():
    shutil.rmtree(Database.folder, ignore_errors=True)


class BoardsAreGames(unittest.TestCase):
    def setUp(self):
        self.tb = damas.Tablebase(Database.folder, variant="english")

    def play(self, board, move):
        """Pushes a legal move (as tb.best names it) and its position after."""
        after = {m.move: m.fen_after for m in self.tb.best(board.fen)}
        self.assertIn(move, after, board.fen)
        board.push(move, after[move])

    def test_king_moves_count_towards_the_40_move_rule(self):
        board = FakeBoard("english", "W:WK18,K22:BK5")
        for _ in range(17):
            for move in ("18-14", "5-1", "14-18", "1-5"):
                self.play(board, move)
        self.assertEqual(board.fen, "W:WK18,K22:BK5")
        got = self.tb.probe(board)
        want = self.tb.probe(board.fen, plies_since_capture=68)
        fresh = self.tb.probe(board.fen)
        self.assertEqual(repr(got), repr(want))
        self.assertEqual(got.rules.plies_left, 12)
        self.assertEqual(fresh.rules.plies_left, 80)
        self.assertEqual([repr(m) for m in self.tb.best(board)],
                         [repr(m) for m in self.tb.best(board.fen, plies_since_capture=68)])
        # Two more plies and the rules draw it (the README's example: 70 plies used).
        self.play(board, "18-14")
        self.play(board, "5-1")
        self.play(board, "14-18")
        self.play(board, "1-5")
        self.assertEqual(self.tb.probe(board).rules.value,
                         self.tb.probe(board.fen, plies_since_capture=72).rules.value)

    def test_a_capture_restarts_the_count(self):
        board = FakeBoard("american", "W:WK18:BK15,K1")  # pydraughts reads american as english
        self.play(board, "18x11")
        self.play(board, "1-5")
        self.play(board, "11-15")
        got = self.tb.probe(board)
        self.assertEqual(repr(got), repr(self.tb.probe(board.fen, plies_since_capture=2)))

    def test_a_board_at_its_start_is_its_fen(self):
        board = FakeBoard("english", "W:WK18,K22:BK5")
        self.assertEqual(repr(self.tb.probe(board)), repr(self.tb.probe("W:WK18,K22:BK5")))

    def test_bad_boards_raise_value_error(self):
        with self.assertRaisesRegex(ValueError, "variant 'standard'"):
            self.tb.probe(FakeBoard("standard", "W:W31:B19"))
        with self.assertRaisesRegex(ValueError, "variant 'frisian'"):
            self.tb.probe(FakeBoard("frisian", "W:W31:B19"))
        with self.assertRaisesRegex(ValueError, "counts come from its moves"):
            self.tb.probe(FakeBoard("english", "W:WK18,K22:BK5"), plies_since_capture=3)
        lying = FakeBoard("english", "W:WK18,K22:BK5")
        lying.push("18-14", "B:WK18,K22:BK5")
        with self.assertRaisesRegex(ValueError, "not its fen"):
            self.tb.probe(lying)
        illegal = FakeBoard("english", "W:WK18,K22:BK5")
        illegal.push("18-11", "B:WK11,K22:BK5")
        with self.assertRaisesRegex(ValueError, "move 1"):
            self.tb.best(illegal)
        with self.assertRaisesRegex(ValueError, "pydraughts Board"):
            self.tb.probe(42)
        no_moves = FakeBoard("english", "W:WK18,K22:BK5")
        del no_moves.move_stack
        with self.assertRaisesRegex(ValueError, "move_stack"):
            self.tb.probe(no_moves)


if __name__ == "__main__":
    unittest.main()
