// Board diagrams as SVG (see svg.hpp).
#include "tools/render/svg.hpp"

#include <cstdio>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace damas::cli {
namespace {

// Colours of a printed board: light and dark squares, the pieces, and the move's marks.
constexpr const char* light_square = "#f0d9b5";
constexpr const char* dark_square = "#b58863";
constexpr const char* turkish_square = "#e3c16f";
constexpr const char* arrow_colour = "#1f7a3a";
constexpr const char* capture_colour = "#c0392b";

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

struct Layout {
    const GeometryTables& g;
    int s;
    // Top-left corner of the square at (x, y): White's back row (y = 0) at the bottom.
    double left(int x) const { return x * s; }
    double top(int y) const { return (g.height - 1 - y) * s; }
    double cx(int bit) const { return left(g.x_of_square[g.square_of_bit[bit]]) + s / 2.0; }
    double cy(int bit) const { return top(g.y_of_square[g.square_of_bit[bit]]) + s / 2.0; }
};

const GeometryTables& tables_of(const VariantInfo& vi) {
    static const GeometryTables t10 = make_tables(board_10x10);
    static const GeometryTables t8 = make_tables(board_8x8);
    static const GeometryTables t8_light = make_tables(board_8x8_a1_light);
    static const GeometryTables t8_orth = make_tables(board_8x8_orthogonal);
    if (vi.board == board_10x10) return t10;
    if (vi.board == board_8x8_a1_light) return t8_light;
    if (vi.board == board_8x8_orthogonal) return t8_orth;
    return t8;
}

void add_piece(std::string& out, const Layout& l, int bit, bool white, bool king) {
    const double cx = l.cx(bit), cy = l.cy(bit), r = l.s * 0.38;
    out += "<circle class=\"piece ";
    out += white ? "white" : "black";
    out += king ? " king" : " man";
    out += "\" cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(r) + "\" fill=\"";
    out += white ? "#fbfbf5" : "#2b2b2b";
    out += "\" stroke=\"";
    out += white ? "#555" : "#000";
    out += "\" stroke-width=\"" + num(l.s * 0.04) + "\"/>";
    if (king) {
        // A king: a gold ring inside the piece, readable in print and on screen.
        out += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(r * 0.55) +
               "\" fill=\"none\" stroke=\"#d4a017\" stroke-width=\"" + num(l.s * 0.07) + "\"/>";
    }
}

void add_move(std::string& out, const Layout& l, const Move& m) {
    for (Bitboard c = m.captured; c; c &= c - 1) {
        const int b = __builtin_ctzll(c);
        const double d = l.s * 0.25;
        for (const int sign : {1, -1})
            out += "<line class=\"captured\" x1=\"" + num(l.cx(b) - d) + "\" y1=\"" +
                   num(l.cy(b) - sign * d) + "\" x2=\"" + num(l.cx(b) + d) + "\" y2=\"" +
                   num(l.cy(b) + sign * d) + "\" stroke=\"" + capture_colour +
                   "\" stroke-width=\"" + num(l.s * 0.08) + "\" stroke-linecap=\"round\"/>";
    }
    out += "<line class=\"move\" x1=\"" + num(l.cx(m.from)) + "\" y1=\"" + num(l.cy(m.from)) +
           "\" x2=\"" + num(l.cx(m.to)) + "\" y2=\"" + num(l.cy(m.to)) + "\" stroke=\"" +
           arrow_colour + "\" stroke-opacity=\"0.8\" stroke-width=\"" + num(l.s * 0.12) +
           "\" stroke-linecap=\"round\" marker-end=\"url(#arrowhead)\"/>";
}

}  // namespace

std::string board_svg(Variant v, const Position& p, const SvgOptions& o) {
    const VariantInfo& vi = v.info();
    const GeometryTables& g = tables_of(vi);
    const Layout l{g, o.square_px};
    const bool orthogonal = g.grid == Grid::orthogonal;
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 " +
                      std::to_string(g.width * l.s) + " " + std::to_string(g.height * l.s) +
                      "\" width=\"" + std::to_string(g.width * l.s) + "\" height=\"" +
                      std::to_string(g.height * l.s) + "\" data-variant=\"" + v.name() + "\">";
    out += "<title>" + to_fen(v, p) + "</title>";
    out +=
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" "
        "markerWidth=\"3\" markerHeight=\"3\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
        "fill=\"";
    out += arrow_colour;
    out += "\"/></marker></defs>";
    const std::string side = num(l.s);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            const int b = g.bit_at(x, y);
            const char* fill = orthogonal ? turkish_square : b >= 0 ? dark_square : light_square;
            const std::string rect =
                "<rect x=\"" + num(l.left(x)) + "\" y=\"" + num(l.top(y)) + "\" width=\"" + side +
                "\" height=\"" + side + "\" fill=\"" + fill +
                (orthogonal ? "\" stroke=\"#7a5c1e\" stroke-width=\"1" : "") + "\"/>";
            if (b < 0) {
                out += rect;
                continue;
            }
            const std::string name = square_name(vi, b);
            out += "<g class=\"square\" data-square=\"" + name + "\">" + rect;
            if (o.numbers)
                out += "<text x=\"" + num(l.left(x) + l.s * 0.06) + "\" y=\"" +
                       num(l.top(y) + l.s * 0.24) + "\" font-family=\"sans-serif\" font-size=\"" +
                       num(l.s * 0.22) + "\" fill=\"" + (orthogonal ? "#5a4010" : "#f5e6c8") +
                       "\">" + name + "</text>";
            const Bitboard here = bit(b);
            if (p.occupied() & here)
                add_piece(out, l, b, (p.of(Color::white) & here) != 0, (p.kings & here) != 0);
            out += "</g>";
        }
    if (o.move) add_move(out, l, *o.move);
    out += "</svg>\n";
    return out;
}

std::optional<Move> find_move(Variant v, const Position& p, std::string_view text) {
    Move m{};
    if (match_pdn_move(v, p, text, m) != MoveMatch::found) return std::nullopt;
    return m;
}

}  // namespace damas::cli
