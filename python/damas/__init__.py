"""damas: endgame tablebases for the draughts family.

    >>> import damas
    >>> tb = damas.Tablebase("db", variant="english")
    >>> p = tb.probe("W:WK18,K22:BK5", plies_since_capture=70)
    >>> p.value, p.dtw, p.rules.value, p.rules.count, p.rules.plies_left
    ('win', 23, 'draw', 'the 40-move king rule', 10)
    >>> [(m.move, m.value, m.dtw) for m in tb.best("W:WK18,K22:BK5")][:2]
    [('18-14', 'win', 23), ('18-15', 'win', 23)]

tb.probe(board) and tb.best(board) also take a pydraughts Board (draughts.Board, duck-typed on
its variant, initial_fen, move_stack and fen): the move-limit counts then come from the moves
the game has played, so a bot decides a draw offer or a resignation from the game itself.

tb.annotate(pdn_text) replays the games of a PDN text as `damas annotate` does: each game's
positions inside the tablebase probed with the move-limit counts of the game, the moves that
throw a win or a draw away marked "?" or "??", a summary line, and the annotated PDN.

Values are for the side to move ("win", "draw", "loss"); distances are in plies (a move of one
side). Bad input (a FEN that does not parse, an unknown variant or edition, a negative count)
raises ValueError with the message the damas command line gives; a class not in the folder
NotInDatabase (a LookupError; MissingRuleTable for a move-limit rule table); a damaged or
unreadable table file TableError (an OSError); a missing folder FileNotFoundError, one that cannot
be looked at OSError. The folder is a str, bytes or os.PathLike in the file-system encoding. A Tablebase may be used from any number of threads
at once. A probe whose tables are cached (about a microsecond) is answered holding the GIL, so
such probes from several threads take turns; reading the disk, line(), annotate() and
probe_many() (a list of positions in one call, the fast way to scan many) release it, so those
run in parallel.
"""

from typing import Protocol, Sequence

from ._damas import (
    Annotation,
    Game,
    GameMove,
    Move,
    MissingRuleTable,
    NotInDatabase,
    Probe,
    Rules,
    Tablebase,
    TableError,
)



class PydraughtsMove(Protocol):
    """A move of a pydraughts Board's move_stack: its PDN text in the variant's notation."""

    pdn_move: str


class PydraughtsBoard(Protocol):
    """What probe() and best() read of a pydraughts Board (draughts.Board): the variant by
    pydraughts' name ("standard", "antidraughts", "english", "italian", "russian", "brazilian",
    "turkish"), the start, the moves played (the move-limit counts come from them) and the
    position now, which the moves must reach."""

    variant: str
    initial_fen: str
    move_stack: Sequence[PydraughtsMove]

    @property
    def fen(self) -> str: ...


__all__ = [
    "Annotation",
    "Game",
    "GameMove",
    "Move",
    "MissingRuleTable",
    "NotInDatabase",
    "Probe",
    "PydraughtsBoard",
    "PydraughtsMove",
    "Rules",
    "Tablebase",
    "TableError",
]
