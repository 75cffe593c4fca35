// A game as a Hub GUI sends it: the variant by its Hub name, `pos pos=<position> moves="<moves>"`
// (Scan 3.1's protocol.txt) read into the position to play from and the move-limit counts the
// game has used.
//
// Owns: the Hub names of damas's variants (`normal` is international and `losing` international
// giveaway, as Hub and lidraughts-bot name them; the others by damas's names), the position
// string (the side to move, 'W' or 'B', then one character per square: 'w', 'b' a man, 'W', 'B'
// a king, 'e' empty; 51 characters on 10x10 boards, 33 on 8x8 ones, 65 in turkish), and Hub
// moves ("32-28"; a capture "28x19x23": from, to, then every captured square in any order).
// Scan's Hub has 10x10 variants only; on 8x8 boards the one Hub client is pydraughts'
// HubEngine, so positions and moves follow it (hub_game.cpp says how). A PDN FEN is read in place
// of the position string too. The counts come from replaying the moves from the position, each
// count starting there (limits/draw_rules.hpp, as `damas annotate` keeps them).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "limits/draw_rules.hpp"
#include "probe/probe.hpp"
#include "probe/study/game_counts.hpp"
#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace damas::hub {

std::optional<Variant> variant_of_hub_name(std::string_view name);
std::string hub_name(Variant v);
std::string hub_variant_names();  // every name, separated by spaces, normal first

// The position string of p, and back (throws Error naming the problem).
std::string hub_position(Variant v, const Position& p);
Position parse_hub_position(Variant v, std::string_view text);

// "32-28", "28x19x23" (captured squares by number); turkish squares by name ("a3-a4").
std::string hub_move(Variant v, const Move& m);
// The legal move of p that a Hub move names; a capture given by from and to alone when one
// legal move has them. Throws Error naming the problem.
Move parse_hub_move(Variant v, const Position& p, std::string_view text);

// The position a `pos` command reaches and the counts used on the way.
using HubGame = study::GameCounts;
// Throws Error naming the problem (the position, or which move and why).
HubGame replay_hub_game(Variant v, const DrawRules& rules, std::string_view position,
                        std::string_view moves);

}  // namespace damas::hub
