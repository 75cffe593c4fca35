// count, index and unindex: the class index from the command line.
#include <cstdio>
#include <string>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {
namespace {

Material class_or_throw(const std::string& name) {
    const auto m = Material::parse(name);
    if (!m)
        throw Error("bad class '" + name +
                    "' (four digits: white men, white kings, black men, black kings)");
    if (m->white() == 0 || m->black() == 0)
        throw Error("class " + name + " must have at least one piece per side");
    return *m;
}

struct CountOptions {
    std::string variant = "international";
    int pieces = 2;
    bool json = false;
};

void run_count(const CountOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const BoardSpec board = v.info().board;
    if (o.pieces < 2 || o.pieces > 2 * v.info().pieces_per_side)
        throw Error("pieces must be between 2 and " + std::to_string(2 * v.info().pieces_per_side));
    std::uint64_t total = 0;
    Json rows = Json::array();
    for (const Material& m : classes_with_pieces(o.pieces)) {
        const std::uint64_t n = ClassIndex(board, m).size();
        total += n;
        if (o.json)
            rows.push_back({{"class", m.name()}, {"positions", n}});
        else
            std::printf("%s %llu\n", m.name().c_str(), static_cast<unsigned long long>(n));
    }
    if (o.json)
        print_json(
            {{"variant", v.name()}, {"pieces", o.pieces}, {"classes", rows}, {"positions", total}});
    else
        std::printf("total %llu\n", static_cast<unsigned long long>(total));
}

struct IndexOptions {
    std::string variant = "international";
    std::string fen;
    bool json = false;
};

void run_index(const IndexOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const BoardSpec board = v.info().board;
    Position p = parse_fen(v, o.fen);
    const bool flipped = p.side == Color::black;
    if (flipped) p = flip(board, p);
    const Material m = Material::of(p);
    if (m.white() == 0 || m.black() == 0)
        throw Error("the position has no piece of one side: it is not in any class");
    const ClassIndex index(board, m);
    if (const auto why = index.why_not_indexable(p))
        throw Error("cannot index this position: " + *why);
    const std::uint64_t i = index.index(p);
    if (o.json)
        print_json(
            {{"variant", v.name()}, {"class", m.name()}, {"index", i}, {"flipped", flipped}});
    else
        std::printf("%s %llu%s\n", m.name().c_str(), static_cast<unsigned long long>(i),
                    flipped ? " (flipped: Black to move)" : "");
}

struct UnindexOptions {
    std::string variant = "international";
    std::string material;
    std::string index;
    bool json = false;
};

std::uint64_t index_or_throw(const std::string& text, std::uint64_t size) {
    std::size_t used = 0;
    unsigned long long i = 0;
    try {
        i = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || text[0] == '-')
        throw Error("bad index '" + text + "' (a number from 0)");
    if (i >= size)
        throw Error("index " + text + " out of range (the class has " + std::to_string(size) +
                    " positions)");
    return i;
}

void run_unindex(const UnindexOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const Material m = class_or_throw(o.material);
    const ClassIndex index(v.info().board, m);
    const std::uint64_t i = index_or_throw(o.index, index.size());
    const std::string fen = to_fen(v, index.unindex(i));
    if (o.json)
        print_json({{"variant", v.name()}, {"class", m.name()}, {"index", i}, {"fen", fen}});
    else
        std::printf("%s\n", fen.c_str());
}

}  // namespace

void add_index_commands(CLI::App& app) {
    static CountOptions count_options;
    auto* count_cmd = app.add_subcommand("count", "Positions per material class (White to move)");
    add_variant_option(*count_cmd, count_options.variant, false);
    count_cmd
        ->add_option("--pieces,-p,-n", count_options.pieces,
                     "Pieces on the board (-n: the old spelling)")
        ->required();
    count_cmd->add_flag("--json", count_options.json, "Machine-readable output");
    count_cmd->callback([] { run_count(count_options); });

    static IndexOptions index_options;
    auto* index_cmd = app.add_subcommand("index", "The class and index of a position");
    add_variant_option(*index_cmd, index_options.variant, false);
    index_cmd->add_option("--fen,-f", index_options.fen, "Position (Black to move: flipped)")
        ->required();
    index_cmd->add_flag("--json", index_options.json, "Machine-readable output");
    index_cmd->callback([] { run_index(index_options); });

    static UnindexOptions unindex_options;
    auto* unindex_cmd = app.add_subcommand("unindex", "The position of an index in a class");
    add_variant_option(*unindex_cmd, unindex_options.variant, false);
    unindex_cmd->add_option("--class,-c", unindex_options.material, "Class, e.g. 0201")->required();
    unindex_cmd->add_option("--index,-i", unindex_options.index, "Index in the class")->required();
    unindex_cmd->add_flag("--json", unindex_options.json, "Machine-readable output");
    unindex_cmd->callback([] { run_unindex(unindex_options); });
}

}  // namespace damas::cli
