// svg: a position as an SVG diagram, for documents and papers (tools/render/svg.hpp draws it).
#include <cstdio>
#include <fstream>
#include <string>

#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "tools/cli/commands.hpp"
#include "tools/render/svg.hpp"

namespace damas::cli {
namespace {

struct SvgCommandOptions {
    std::string variant;
    std::string fen;
    std::string output;
    std::string move;
    int square_px = 48;
    bool no_numbers = false;
};

void run_svg(const SvgCommandOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const Position p = parse_fen(v, o.fen);
    SvgOptions svg;
    svg.numbers = !o.no_numbers;
    if (o.square_px < 8 || o.square_px > 512)
        throw Error("--square-size must be between 8 and 512");
    svg.square_px = o.square_px;
    if (!o.move.empty()) {
        svg.move = find_move(v, p, o.move);
        if (!svg.move)
            throw Error("'" + o.move + "' is not a legal move in " + to_fen(v, p) +
                        " (write it as damas moves prints it)");
    }
    const std::string text = board_svg(v, p, svg);
    if (o.output.empty() || o.output == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return;
    }
    std::ofstream out(o.output, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw Error("cannot write " + o.output);
}

}  // namespace

void add_svg_commands(CLI::App& app) {
    static SvgCommandOptions o;
    auto* cmd = app.add_subcommand(
        "svg", "A position as an SVG diagram, squares named as the variant names them");
    add_variant_option(*cmd, o.variant);
    cmd->add_option("fen,--fen,-f", o.fen, "Position (FEN)")->required();
    cmd->add_option("--output,-o", o.output, "SVG file to write (default: standard output)");
    cmd->add_option("--move,-m", o.move, "A legal move to draw as an arrow, e.g. 32-28");
    cmd->add_option("--square-size", o.square_px, "Side of a square in pixels (default 48)");
    cmd->add_flag("--no-numbers", o.no_numbers, "Leave the squares unnamed");
    cmd->callback([] { run_svg(o); });
}

}  // namespace damas::cli
