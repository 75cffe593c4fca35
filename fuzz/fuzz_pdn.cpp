// libFuzzer target for the PDN reader and writer and the moves of games: the input is read as a
// PDN text. Each game read must be written back as PDN that reads again to the same game (tags,
// moves, marks, the number of comments before the first move and after each move, the result),
// and is replayed as `damas annotate` replays it (from its [FEN] tag or the initial position,
// each move matched against the legal moves) in every base variant, each move played printed as
// damas prints it and read back to the same move. damas::Error is the expected answer to bad
// input; any other exception, a crash or a sanitizer report is a bug. Only the rules library is
// linked, so that the target builds in seconds.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "rules/error.hpp"
#include "rules/game_type.hpp"
#include "rules/legal_moves.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace {

[[noreturn]] void fail(std::string_view what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_pdn: %.*s: %s\n", static_cast<int>(what.size()), what.data(),
                 detail.c_str());
    std::abort();
}

void check_written_back(const damas::PdnGame& g) {
    const std::string text = damas::write_pdn(g, true);
    std::vector<damas::PdnGame> again;
    try {
        again = damas::read_pdn(text);
    } catch (const damas::Error& e) {
        fail(std::string("written PDN does not read: ") + e.what(), text);
    }
    if (again.size() != 1) fail("written PDN reads as " + std::to_string(again.size()), text);
    const damas::PdnGame& a = again[0];
    if (a.tags.size() != g.tags.size() || a.moves.size() != g.moves.size() ||
        a.before.size() != g.before.size() ||
        (!g.moves.empty() && a.first_number != g.first_number))
        fail("written PDN reads to other tags or moves", text);
    for (std::size_t i = 0; i < g.tags.size(); ++i)
        if (a.tags[i].name != g.tags[i].name || a.tags[i].value != g.tags[i].value)
            fail("a tag changed", text);
    for (std::size_t i = 0; i < g.moves.size(); ++i)
        if (a.moves[i].text != g.moves[i].text || a.moves[i].mark != g.moves[i].mark ||
            a.moves[i].after.size() != g.moves[i].after.size())
            fail("a move changed", text);
    if (a.result != (g.result.empty() ? "*" : g.result)) fail("the result changed", text);
}

// The game replayed, each move's printed form read back; the replay stops at a move that is not
// legal (annotate's error).
void replay(const damas::Variant& v, const damas::PdnGame& g) {
    damas::Position p;
    try {
        (void)damas::variant_of_game_type(g.tag("GameType").value_or(""));
        const auto fen = g.tag("FEN");
        p = fen ? damas::parse_fen(v, *fen) : damas::initial_position(v);
    } catch (const damas::Error&) {
        return;
    }
    for (const damas::PdnMove& written : g.moves) {
        damas::Move m{};
        if (damas::match_pdn_move(v, p, written.text, m) != damas::MoveMatch::found) return;
        damas::MoveList legal;
        damas::generate_legal_moves(v, p, legal);
        const std::string printed = damas::move_notation(v.info(), m, legal);
        damas::Move back{};
        if (damas::match_pdn_move(v, p, printed, back) != damas::MoveMatch::found || !(back == m))
            fail("a printed move does not read back", printed + " in " + damas::to_fen(v, p));
        p = damas::make_move(p, m);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<damas::PdnGame> games;
    try {
        games = damas::read_pdn(input);
    } catch (const damas::Error&) {
        return 0;
    }
    for (const damas::PdnGame& g : games) {
        check_written_back(g);
        for (int b = 0; b < damas::base_variant_count; ++b) {
            const damas::Variant v{static_cast<damas::BaseVariant>(b), false};
            replay(v, g);
        }
    }
    return 0;
}
