// The JSON of the lichess-shaped tablebase API (`damas serve`'s GET /{variant}?fen=...): keys as
// lichess's tablebase server writes them (lichess-org/lila-tablebase, README "HTTP API" and
// src/response.rs), for the keys that mean something in draughts.
//
// Owns: the key names and their order. The position's keys, then "moves", each move with the
// same keys for the position after it (for the opponent, as lichess does):
//   category        win, cursed-win, maybe-win, draw, maybe-loss, blessed-loss, loss, unknown
//                   (probe/study/tablebase_answer.hpp)
//   dtw             plies to the end of the game, signed: > 0 the side to move wins, < 0 it
//                   loses, 0 a draw or a game over; null unknown (lichess's dtw and dtm)
//   mtc             moves to conversion (lichess's dtc): no damas table holds it, always null
//   variant_win     the game is over and the side to move has won (giveaway: no move left;
//   variant_loss    turkish: a king against a lone man), or has lost (no move left)
// a move adds, first: uci (move_uci, rules/notation.hpp), san (PDN move text, "32-28",
// "28x19"), zeroing (a capture or a man move), conversion (a capture or a crowning).
// lichess's dtz, precise_dtz (50-move-rule distances), dtm (damas's dtw is the distance to the
// game's end), checkmate, stalemate and insufficient_material have no draughts meaning and are
// not written. "rules_missing" (a sentence, no path) is added when the variant's rule tables are
// missing and the categories are the pure ones.
#pragma once

#include <string>

#include "probe/study/tablebase_answer.hpp"
#include "tools/render/analysis_json.hpp"

namespace damas::cli {

Json tablebase_json(const study::TablebaseAnswer& a, const std::string& rules_missing);

}  // namespace damas::cli
