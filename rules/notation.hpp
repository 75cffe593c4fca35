// PDN 3.0 notation: square names, FEN positions and move text in each variant's own numbering.
//
// Owns: the translation between text and the bit layout of geometry.hpp. Numeric variants use
// their PDN GameType numbering; brazilian and russian print algebraic squares and also read the
// numeric form; turkish is algebraic only (RULES.md, "Square numbering and notation").
// FEN: "W:W31-50:B1-20" = side to move, then each colour's squares, K before a king, ranges of
// numeric squares allowed, a colour with no piece written as an empty list ("W:W:B1").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rules/geometry.hpp"
#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace damas {

// Square name of a bit index: "31" or "c3" depending on the variant.
// The board tables of v's board (geometry.hpp), made once per base variant.
const GeometryTables& geometry_tables(const VariantInfo& v);

std::string square_name(const VariantInfo& v, int bit_index);
// Numeric PDN name of a bit index under the variant's (or, for algebraic ones, english) numbering.
int square_number(const VariantInfo& v, int bit_index);
// The bit index of a square written in the variant's notation, or nullopt.
std::optional<int> parse_square(const VariantInfo& v, std::string_view text);

// Parses and validates a FEN; throws damas::Error naming the problem.
Position parse_fen(const Variant& v, std::string_view fen);
std::string to_fen(const Variant& v, const Position& p);
Position initial_position(const Variant& v);

// Checks a position for what the rules forbid (a man on its own promotion row, too many pieces);
// throws damas::Error.
void validate(const Variant& v, const Position& p);

// Sorts moves as a reader looks them up: by from square, then to square, then captured squares,
// each in the notation's order (numbers, or a1, c1, ..., b2 for algebraic boards).
void sort_by_square(const VariantInfo& v, MoveList& moves);

// "32-28", "28x19", "a3-b4", "c3:e5".
std::string move_text(const VariantInfo& v, const Move& m);
// The same with the captured squares in brackets, "28x19[23,32]", used when two legal moves
// share their from and to squares.
std::string move_text_with_captures(const VariantInfo& v, const Move& m);
// The move as damas prints it among the legal moves of its position: move_text, or
// move_text_with_captures when another of them shares its from and to squares. `moves`, `best`,
// `line` and `annotate` print this; match_pdn_move (rules/pdn.hpp) reads it back.
std::string move_notation(const VariantInfo& v, const Move& m, const MoveList& legal);

// The move as one token without separators, for programs (the `uci` of the lichess-shaped
// tablebase API): each square as two digits of the variant's PDN numbering (the english one for
// brazilian and russian), as lidraughts writes square keys (scaladraughts Pos.key, "%02d"):
// from and to ("3228"), then for a capture its captured squares in increasing order ("281923"),
// the order in which pydraughts writes a Hub move's squares (Move.hub_position_move). lidraughts'
// UCI follows a capture with its landing squares instead; a damas move is its from, to and
// captured set (paths that share them are one move), so the captured squares name it. Turkish,
// on all 64 squares, writes algebraic squares as chess UCI does ("a3a4", "a3a5a4").
std::string move_uci(const VariantInfo& v, const Move& m);

}  // namespace damas
