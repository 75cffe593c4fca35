// `damas svg`: the diagram written to a file is the renderer's (tools/render/svg.hpp,
// tests/render/test_svg.cpp); bad input is one error line and exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "rules/notation.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scratch.hpp"
#include "tools/render/svg.hpp"

namespace damas::cli {
namespace {

using test::CliRun;

TEST(SvgCommand, WritesTheDiagramAndRejectsBadInput) {
    const test::ScratchDir dir("svg");
    const auto file = dir.path / "board.svg";
    CliRun r = test::run_shell(test::damas_command(
        "svg -v english 'W:W21,22:B9' --move 22-18 -o '" + file.string() + "'"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const Variant english = *parse_variant("english");
    SvgOptions o;
    const Position p = parse_fen(english, "W:W21,22:B9");
    o.move = find_move(english, p, "22-18");
    EXPECT_EQ(test::slurp(file), board_svg(english, p, o));

    for (const char* bad : {"svg -v english 'W:W21,22:B9' --move 22-13", "svg -v nope 'W:W21:B9'",
                            "svg -v english 'W:W99:B9'"}) {
        r = test::run_shell(test::damas_command(bad));
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_TRUE(r.out.empty());
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("damas: error: ", 0), 0u) << r.err;
    }
}

}  // namespace
}  // namespace damas::cli
