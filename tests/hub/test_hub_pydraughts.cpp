// damas hub against what pydraughts' HubEngine sends and reads (tests/data/hub/
// pydraughts_samples.tsv, written by pydraughts itself through scripts/pydraughts-hub-samples.py):
// for random positions of every variant both have, the position string of `pos pos=` is the
// position of the FEN, and every legal move's Hub text (as damas writes and reads it) is the text
// pydraughts gives that move, and leads to pydraughts' FEN after it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/error.hpp"
#include "rules/legal_moves.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tools/hub/hub_game.hpp"

namespace damas::hub {
namespace {

std::vector<std::string> split(const std::string& line, char separator) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
    return fields;
}

// pydraughts' variant names as lidraughts-bot hands them on (its parse_variant).
Variant variant_of_pydraughts_name(const std::string& name) {
    const std::string hub = name == "standard"       ? "normal"
                            : name == "antidraughts" ? "losing"
                                                     : name;
    const auto v = variant_of_hub_name(hub);
    if (!v) throw std::runtime_error("no variant " + name);
    return *v;
}

MoveList legal_moves(Variant v, const Position& p) {
    MoveList list;
    generate_legal_moves(v, p, list);
    return list;
}

TEST(HubPydraughts, PositionsAndMovesAsPydraughtsSendsAndReadsThem) {
    std::ifstream in(PYDRAUGHTS_SAMPLES);
    ASSERT_TRUE(in) << PYDRAUGHTS_SAMPLES;
    std::set<std::string> variants_seen;
    int positions = 0, moves = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto fields = split(line, '\t');
        ASSERT_GE(fields.size(), 4u) << line;
        const Variant v = variant_of_pydraughts_name(fields[0]);
        variants_seen.insert(fields[0]);
        const Position p = parse_fen(v, fields[1]);
        SCOPED_TRACE(fields[0] + " " + fields[1]);
        EXPECT_EQ(parse_hub_position(v, fields[2]), p) << fields[2];
        EXPECT_EQ(hub_position(v, p), fields[2]);
        std::map<std::string, std::string> after_of_text;  // pydraughts' moves
        for (std::size_t i = 3; i < fields.size(); ++i) {
            const auto space = fields[i].find(' ');
            after_of_text[fields[i].substr(0, space)] = fields[i].substr(space + 1);
        }
        const MoveList legal = legal_moves(v, p);
        // pydraughts' turkish kings also pass through pieces (its king moves "f7-a7" over c7
        // and b7): there it lists more moves, and each of damas's is among them.
        if (v.base != BaseVariant::turkish) {
            EXPECT_EQ(legal.size(), after_of_text.size());
        }
        for (const Move& m : legal) {
            const std::string text = hub_move(v, m);
            const auto found = after_of_text.find(text);
            if (found == after_of_text.end()) {
                ADD_FAILURE() << text << " is not among pydraughts' moves";
                continue;
            }
            EXPECT_EQ(make_move(p, m), parse_fen(v, found->second)) << text;
            EXPECT_EQ(parse_hub_move(v, p, text), m) << text;
            ++moves;
        }
        ++positions;
    }
    EXPECT_EQ(variants_seen.size(), 7u);
    EXPECT_GT(positions, 150);
    EXPECT_GT(moves, 1000);
}

}  // namespace
}  // namespace damas::hub
