// The rules of each variant as compile-time traits.
//
// Owns: one struct per base variant; every member names the rule it encodes and cites where it
// comes from (S000..S004 are the seed texts in shared/seeds, see shared/RULES.md). A variant
// states only what differs from `DefaultRules` (the international rules). Giveaway is not a
// separate struct: its moves are its base variant's, only the result is reversed (S004,
// "perde-ganha"), so it is a runtime flag (see variant.hpp).
// Cells that RULES.md marks (?) are single named constants in `uncertain`, easy to change.
#pragma once

#include <cstdint>

#include "rules/geometry.hpp"

namespace damas {

enum class Color : std::uint8_t { white = 0, black = 1 };
constexpr Color operator~(Color c) {
    return c == Color::white ? Color::black : Color::white;
}
constexpr int index_of(Color c) {
    return static_cast<int>(c);
}
constexpr const char* color_name(Color c) {
    return c == Color::white ? "white" : "black";
}

// Which capture sequences are allowed among those the pieces can make.
enum class Precedence : std::uint8_t {
    free_choice,      // any complete sequence (russian, english)
    most_pieces,      // majority rule, free among equal counts
    most_then_kings,  // majority, then most kings captured (portuguese)
    italian,          // majority, then king captures, then most kings, then kings met earliest
};

// What happens when a man reaches the promotion row in the middle of a capture.
enum class MidCapturePromotion : std::uint8_t {
    stays_man,     // passes as a man; crowned only if the move ends there
    becomes_king,  // crowned at once and continues capturing as a king
    ends_move,     // crowned and the move ends there
};

namespace uncertain {
// RULES.md (?) cells, one named value each.
// Turkish kings land on any free square beyond the captured piece (like flying kings elsewhere).
inline constexpr bool turkish_king_lands_anywhere_beyond = true;
// Turkish men that reach the last row mid-capture keep capturing as men, crowned at the end.
inline constexpr MidCapturePromotion turkish_mid_capture = MidCapturePromotion::stays_man;
// Turkish: a king against a lone man wins (S004: "no máximo uma peça contra uma dama").
inline constexpr bool turkish_king_beats_lone_man = true;
}  // namespace uncertain

struct DefaultRules {
    using Board = damas::Board<board_10x10>;                           // S000 2.1
    static constexpr Color first_to_move = Color::white;               // S000 3.3
    static constexpr bool men_capture_backward = true;                 // S000 4.1, 4.2
    static constexpr bool men_move_sideways = false;                   // S000 3.4
    static constexpr bool flying_kings = true;                         // S000 3.9, 4.3
    static constexpr bool king_lands_anywhere_beyond = true;           // S000 4.3, 4.6
    static constexpr Precedence precedence = Precedence::most_pieces;  // S000 4.13, 4.14
    static constexpr bool men_capture_kings = true;                    // S000 4.13
    static constexpr MidCapturePromotion mid_capture = MidCapturePromotion::stays_man;  // S000 4.15
    static constexpr bool remove_captured_at_once = false;     // S000 4.8, 4.11
    static constexpr bool forbid_reversal_in_capture = false;  // moot: captured pieces block
    static constexpr bool king_beats_lone_man = false;         // S000 7.2
};

struct International : DefaultRules {
    static constexpr const char* name = "international";
};

// S001 and S004: "as international, on 64 squares".
struct Brazilian : DefaultRules {
    static constexpr const char* name = "brazilian";
    using Board = damas::Board<board_8x8>;  // S001 (64 squares, dark corner on the left)
};

struct Portuguese : DefaultRules {
    static constexpr const char* name = "portuguese";
    using Board = damas::Board<board_8x8_a1_light>;                        // S002 2.1.5, S003
    static constexpr bool men_capture_backward = false;                    // S002 2.2.8, S003
    static constexpr Precedence precedence = Precedence::most_then_kings;  // S002 3.1.1b-c, S003
};

struct Russian : DefaultRules {
    static constexpr const char* name = "russian";
    using Board = damas::Board<board_8x8>;                             // S004
    static constexpr Precedence precedence = Precedence::free_choice;  // S004 (russian)
    static constexpr MidCapturePromotion mid_capture = MidCapturePromotion::becomes_king;  // S004
};

struct Italian : DefaultRules {
    static constexpr const char* name = "italian";
    using Board = damas::Board<board_8x8_a1_light>;      // S004 (white square on the left)
    static constexpr bool men_capture_backward = false;  // Italian federation rules
    static constexpr bool flying_kings = false;          // Italian federation rules
    static constexpr bool king_lands_anywhere_beyond = false;
    static constexpr Precedence precedence = Precedence::italian;  // S004 ("a peça mais valiosa")
    static constexpr bool men_capture_kings = false;  // S004 ("não podem tomar a dama")
    static constexpr MidCapturePromotion mid_capture = MidCapturePromotion::ends_move;
};

struct English : DefaultRules {
    static constexpr const char* name = "english";
    using Board = damas::Board<board_8x8>;
    static constexpr Color first_to_move = Color::black;               // ACF rules: Black first
    static constexpr bool men_capture_backward = false;                // S004 (damas inglesas)
    static constexpr bool flying_kings = false;                        // S004
    static constexpr bool king_lands_anywhere_beyond = false;          // S004
    static constexpr Precedence precedence = Precedence::free_choice;  // S004
    static constexpr MidCapturePromotion mid_capture = MidCapturePromotion::ends_move;  // ACF
};

struct Turkish : DefaultRules {
    static constexpr const char* name = "turkish";
    using Board = damas::Board<board_8x8_orthogonal>;    // S004 (64 squares)
    static constexpr bool men_capture_backward = false;  // S004 ("para a frente ou para os lados")
    static constexpr bool men_move_sideways = true;      // S004
    static constexpr bool king_lands_anywhere_beyond =
        uncertain::turkish_king_lands_anywhere_beyond;
    static constexpr MidCapturePromotion mid_capture = uncertain::turkish_mid_capture;
    static constexpr bool remove_captured_at_once = true;     // S004 ("imediatamente eliminada")
    static constexpr bool forbid_reversal_in_capture = true;  // Turkish federation rules
    static constexpr bool king_beats_lone_man = uncertain::turkish_king_beats_lone_man;  // S004
};

}  // namespace damas
