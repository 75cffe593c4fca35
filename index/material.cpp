#include "index/material.hpp"

#include <algorithm>
#include <tuple>

namespace damas {
namespace {

bool valid_digit(char c) {
    return c >= '0' && c <= '9';
}

// The pair {m, m.mirrored()} is named by its smaller member.
Material pair_key(Material m) {
    return std::min(m, m.mirrored());
}

void add_unique(std::vector<Material>& out, Material m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
}

// The class of a Black-to-move position once flipped, dropping finished games.
void add_after_move(std::vector<Material>& out, Material after_white_moved) {
    if (after_white_moved.black() == 0) return;
    add_unique(out, after_white_moved.mirrored());
}

}  // namespace

std::string Material::name() const {
    std::string s;
    for (int n : {white_men, white_kings, black_men, black_kings}) s += std::to_string(n);
    return s;
}

std::optional<Material> Material::parse(std::string_view text) {
    if (text.size() != 4 || !std::all_of(text.begin(), text.end(), valid_digit))
        return std::nullopt;
    return Material{text[0] - '0', text[1] - '0', text[2] - '0', text[3] - '0'};
}

Material Material::of(const Position& p) {
    return {popcount(p.men(Color::white)), popcount(p.kings_of(Color::white)),
            popcount(p.men(Color::black)), popcount(p.kings_of(Color::black))};
}

std::vector<Material> classes_with_pieces(int pieces) {
    std::vector<Material> out;
    for (int wm = 0; wm <= pieces; ++wm)
        for (int wk = 0; wm + wk <= pieces; ++wk)
            for (int bm = 0; wm + wk + bm <= pieces; ++bm) {
                const Material m{wm, wk, bm, pieces - wm - wk - bm};
                if (m.white() >= 1 && m.black() >= 1) out.push_back(m);
            }
    return out;  // the loops already run in ascending order
}

std::vector<Material> classes_up_to(int max_pieces) {
    std::vector<Material> all;
    for (int n = 2; n <= max_pieces; ++n)
        for (Material m : classes_with_pieces(n)) all.push_back(m);
    const auto order = [](const Material& m) {
        const Material key = pair_key(m);
        return std::tuple(m.pieces(), m.men(), key, m != key);
    };
    std::sort(all.begin(), all.end(),
              [&](const Material& a, const Material& b) { return order(a) < order(b); });
    return all;
}

namespace {

std::vector<Material> reached(Material m, bool quiet_promotion) {
    std::vector<Material> out;
    const int promotions = m.white_men > 0 ? 1 : 0;
    for (int p = 0; p <= promotions; ++p) {
        const int wm = m.white_men - p, wk = m.white_kings + p;
        if (p == 1 && quiet_promotion) add_after_move(out, {wm, wk, m.black_men, m.black_kings});
        for (int cm = 0; cm <= m.black_men; ++cm)
            for (int ck = 0; ck <= m.black_kings; ++ck)
                if (cm + ck > 0)
                    add_after_move(out, {wm, wk, m.black_men - cm, m.black_kings - ck});
    }
    std::erase_if(out, [&](const Material& d) { return d == m || d == m.mirrored(); });
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<Material> dependencies(Material m) {
    return reached(m, true);
}

std::vector<Material> capture_dependencies(Material m) {
    return reached(m, false);
}

}  // namespace damas
