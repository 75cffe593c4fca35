#!/usr/bin/env python3
"""Writes what pydraughts' HubEngine sends and reads, for tests/hub's pydraughts layout test.

pydraughts (github.com/AttackingOrDefending/pydraughts) is not a Debian package, so CI cannot
run it: this script runs it once, from a checkout on PYTHONPATH, and its output is committed as
tests/data/hub/pydraughts_samples.tsv. For random positions of every variant both have, each
line holds: the variant (pydraughts' name), the position as a FEN in the variant's PDN notation
(pydraughts' `Board.fen`), the position string HubEngine sends in `pos pos=`
(`Game.initial_hub_fen`), then for every legal move the Hub move text HubEngine sends in
`moves="..."` and reads back as `bestmove` (`Move.hub_move`), a space, and the FEN after it.

    PYTHONPATH=/path/to/pydraughts scripts/pydraughts-hub-samples.py > tests/data/hub/pydraughts_samples.tsv
"""
import random
import sys

from draughts import Board

VARIANTS = ["standard", "antidraughts", "english", "italian", "russian", "brazilian", "turkish"]
GAMES_PER_VARIANT = 12
SAMPLES_PER_GAME = 4


def sample_line(variant, board):
    fen = board.fen
    hub_position = Board(variant, fen)._game.initial_hub_fen
    fields = [variant, fen, hub_position]
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        fields.append(f"{move.hub_move} {after.fen}")
    return "\t".join(fields)


def main():
    rng = random.Random(20261128)
    print("# made by scripts/pydraughts-hub-samples.py from pydraughts " + sys.argv[1]
          if len(sys.argv) > 1 else "# made by scripts/pydraughts-hub-samples.py")
    for variant in VARIANTS:
        for _ in range(GAMES_PER_VARIANT):
            board = Board(variant)
            plies = sorted(rng.sample(range(0, 120), SAMPLES_PER_GAME))
            ply = 0
            for target in plies:
                while ply < target and board.legal_moves() and not board.is_over():
                    board.push(rng.choice(board.legal_moves()))
                    ply += 1
                if not board.legal_moves() or board.is_over():
                    break
                print(sample_line(variant, board))


if __name__ == "__main__":
    main()
