// Material classes: how many men and kings each side has, White to move.
//
// Owns: the naming of classes ("wm wk bm bk", four digits as in the literature: "1010" is one
// white man against one black man, "0301" three white kings against one black king), the list of
// classes with a given number of pieces, and the order in which classes must be solved.
//
// Only White-to-move classes exist: a Black-to-move position of class C is stored as its colour
// flip (flip.hpp), a White-to-move position of C.mirrored(). A class and its mirror are solved
// together, since a quiet move of one leads to the other.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.hpp"

namespace damas {

struct Material {
    int white_men = 0, white_kings = 0, black_men = 0, black_kings = 0;

    int pieces() const { return white() + black(); }
    int white() const { return white_men + white_kings; }
    int black() const { return black_men + black_kings; }
    int men() const { return white_men + black_men; }
    Material mirrored() const { return {black_men, black_kings, white_men, white_kings}; }
    std::string name() const;                                // "1010"
    static std::optional<Material> parse(std::string_view);  // inverse of name()
    static Material of(const Position& p);                   // White = the white pieces
    auto operator<=>(const Material&) const = default;
};

// Every class with exactly `pieces` pieces and at least one piece per side, in ascending order
// of name (white men, white kings, black men, black kings compared in that order).
std::vector<Material> classes_with_pieces(int pieces);

// Every class with 2..max_pieces pieces in an order to solve them: each class comes after every
// class it depends on, and a class is immediately followed by its mirror (unless it is its own).
// The order is by pieces, then by men (a capture removes a piece, a promotion removes a man, so
// both keys never grow along a move), then by name of the smaller of the pair.
std::vector<Material> classes_up_to(int max_pieces);

// The classes (White to move, so after the flip) that one move from a White-to-move position of
// m can reach, other than m and m.mirrored(): captures of any number of men and kings, with or
// without the capturing man's promotion, and quiet promotions. Classes where a side has no piece
// left (the game is over) are not included. This is what the material allows; a rule may make a
// class unreachable (italian men cannot take kings), which only costs an unused dependency.
std::vector<Material> dependencies(Material m);
// The classes of those that a capture reaches (every one but the quiet promotion's): what a
// capture search from a position of m reads.
std::vector<Material> capture_dependencies(Material m);

}  // namespace damas
