// Test helpers: the legal moves of a position as sorted text, and the position after a move.
//
// Tests compare whole sorted lists, so a missing or an extra move fails. Captured squares are
// listed in brackets, sorted as strings, by the helper itself (not by move_text_with_captures)
// so that the expected lists do not depend on the engine's ordering.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace damas::test {

inline Variant variant_named(std::string_view name) {
    const auto v = parse_variant(name);
    if (!v) throw Error("test uses an unknown variant '" + std::string(name) + "'");
    return *v;
}

inline MoveList generate(const Variant& v, const Position& p, bool keep_duplicates) {
    MoveList moves;
    dispatch(v.base, [&](auto rules) {
        MoveGenerator<decltype(rules)>::generate(p, moves, keep_duplicates);
    });
    return moves;
}

// "28x19" or, with captures, "28x19[23,32]" (captured names sorted as strings).
inline std::string describe(const Variant& v, const Move& m, bool with_captures) {
    std::string text = move_text(v.info(), m);
    if (!with_captures) return text;
    std::vector<std::string> caps;
    for_each_bit(m.captured, [&](int b) { caps.push_back(square_name(v.info(), b)); });
    std::sort(caps.begin(), caps.end());
    text += '[';
    for (std::size_t i = 0; i < caps.size(); ++i) text += (i ? "," : "") + caps[i];
    return text + ']';
}

inline std::vector<std::string> sorted(std::vector<std::string> list) {
    std::sort(list.begin(), list.end());
    return list;
}

// The legal moves of `fen` as sorted text.
inline std::vector<std::string> moves_of(std::string_view variant, std::string_view fen,
                                         bool with_captures = false, bool keep_duplicates = false) {
    const Variant v = variant_named(variant);
    const MoveList moves = generate(v, parse_fen(v, fen), keep_duplicates);
    std::vector<std::string> texts;
    for (const Move& m : moves) texts.push_back(describe(v, m, with_captures));
    return sorted(texts);
}

// The FEN after the one legal move whose text (plain or with captures) is `text`.
inline std::string fen_after(std::string_view variant, std::string_view fen,
                             std::string_view text) {
    const Variant v = variant_named(variant);
    const Position p = parse_fen(v, fen);
    const MoveList moves = generate(v, p, false);
    std::string result;
    int matches = 0;
    for (const Move& m : moves)
        if (describe(v, m, false) == text || describe(v, m, true) == text) {
            result = to_fen(v, make_move(p, m));
            ++matches;
        }
    if (matches != 1) ADD_FAILURE() << text << " matches " << matches << " legal moves";
    return result;
}

// The same position written as the engine prints it, for comparing FENs.
inline std::string canonical(std::string_view variant, std::string_view fen) {
    const Variant v = variant_named(variant);
    return to_fen(v, parse_fen(v, fen));
}

}  // namespace damas::test
