# Type stubs of the damas package (the compiled module damas._damas).
import os
from typing import Literal, Optional, Protocol, Sequence, Union

Value = Literal["win", "draw", "loss"]

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

class NotInDatabase(LookupError): ...
class MissingRuleTable(NotInDatabase): ...
class TableError(OSError): ...

class Rules:
    """A value under the move-limit draw rules."""

    @property
    def value(self) -> Value: ...
    @property
    def dtr(self) -> Optional[int]:
        """Plies to the rule's goal; None for a draw. Not the DTW."""
    @property
    def count(self) -> Optional[str]:
        """The count in force, e.g. 'the 5-move rule'."""
    @property
    def plies_left(self) -> Optional[int]: ...
    @property
    def exact(self) -> bool: ...

class Probe:
    """The value of a position for the side to move."""

    @property
    def fen(self) -> str: ...
    @property
    def value(self) -> Value: ...
    @property
    def dtw(self) -> Optional[int]:
        """Plies to the end of the game; None for a draw, 0 when the game is over; None where
        the class holds MTC."""
    @property
    def mtc(self) -> Optional[int]:
        """Plies to the next capture or man move (gen --metric mtc); None for a draw or a DTW
        class."""
    @property
    def rules(self) -> Optional[Rules]: ...
    @property
    def rules_missing(self) -> Optional[str]: ...

class Move:
    """A legal move and its value for the side that plays it, counting the move."""

    @property
    def move(self) -> str: ...
    @property
    def fen_after(self) -> str: ...
    @property
    def value(self) -> Value: ...
    @property
    def dtw(self) -> Optional[int]: ...
    @property
    def mtc(self) -> Optional[int]: ...
    @property
    def rules(self) -> Optional[Rules]: ...

class GameMove:
    """A move of an annotated game."""

    @property
    def number(self) -> str:
        """'12.' or '12...' as PDN numbers it."""
    @property
    def side(self) -> Literal["white", "black"]: ...
    @property
    def move(self) -> str:
        """The move as the PDN has it."""
    @property
    def notation(self) -> str: ...
    @property
    def fen_after(self) -> str: ...
    @property
    def after(self) -> Optional[Probe]:
        """The position after the move with the game's counts; None outside the tablebase."""
    @property
    def mark(self) -> Literal["", "?", "??"]: ...

class Game:
    """A game of a PDN text, annotated with the tablebase."""

    @property
    def number(self) -> int: ...
    @property
    def players(self) -> str: ...
    @property
    def tags(self) -> list[tuple[str, str]]: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def start(self) -> Optional[Probe]: ...
    @property
    def moves(self) -> list[GameMove]: ...
    @property
    def entered(self) -> Optional[int]:
        """Plies played when the game first stood inside the tablebase (0: at the start)."""
    @property
    def summary(self) -> str: ...
    @property
    def rules_missing(self) -> Optional[str]: ...
    @property
    def pdn(self) -> str: ...

class Annotation:
    """The games of a PDN text, annotated."""

    @property
    def games(self) -> list[Game]: ...
    @property
    def pdn(self) -> str: ...

class Tablebase:
    """A database folder of one variant; thread-safe: reads from the disk release the GIL."""

    def __init__(
        self,
        folder: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
        variant: str = "english",
        cache_mib: int = 64,
    ) -> None: ...
    @property
    def variant(self) -> str: ...
    @property
    def folder(self) -> os.PathLike[str]: ...
    @property
    def cache_mib(self) -> int: ...
    @property
    def largest_pieces(self) -> int: ...
    def probe(
        self,
        position: Union[str, PydraughtsBoard],
        plies_since_capture: int = 0,
        plies_in_ending: int = 0,
        forcada_plies: Optional[int] = None,
        edition: str = "seed",
    ) -> Probe: ...
    def probe_many(
        self,
        fens: list[str],
        plies_since_capture: int = 0,
        plies_in_ending: int = 0,
        forcada_plies: Optional[int] = None,
        edition: str = "seed",
    ) -> list[Probe]: ...
    def best(
        self,
        position: Union[str, PydraughtsBoard],
        plies_since_capture: int = 0,
        plies_in_ending: int = 0,
        forcada_plies: Optional[int] = None,
        edition: str = "seed",
    ) -> list[Move]: ...
    def line(self, fen: str) -> list[Move]: ...
    def annotate(self, pdn: str, edition: str = "seed") -> Annotation: ...

__all__: list[str]
