// Perft from the initial position against the published figures of shared/RULES.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace damas {
namespace {

struct Published {
    const char* variant;
    std::vector<std::uint64_t> nodes;  // depth 1, 2, ...
    int ci_depth;                      // how deep the fast suite goes
};

// shared/RULES.md, "Published perft figures". Giveaway variants share their base's figures.
const std::vector<Published> published = {
    {"international", {9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423}, 8},
    {"brazilian", {7, 49, 302, 1469, 7473, 37628, 187302, 907830}, 8},
    {"russian", {7, 49, 302, 1469, 7482, 37986, 190146, 929899}, 8},
    {"portuguese", {7, 49, 302, 1469, 7361, 36473, 177532, 828783}, 8},
    {"italian", {7, 49, 302, 1469, 7361, 36473, 177532, 828783}, 8},
    {"english", {7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680}, 9},
};

class PublishedPerft : public ::testing::TestWithParam<Published> {};

TEST_P(PublishedPerft, MatchesEveryDepth) {
    const Published& row = GetParam();
    for (const char* suffix : {"", "-giveaway"}) {
        const auto v = parse_variant(std::string(row.variant) + suffix);
        ASSERT_TRUE(v);
        const Position start = initial_position(*v);
        for (int d = 1; d <= row.ci_depth && d <= static_cast<int>(row.nodes.size()); ++d)
            EXPECT_EQ(perft(*v, start, d), row.nodes[d - 1]) << v->name() << " depth " << d;
    }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, PublishedPerft, ::testing::ValuesIn(published),
                         [](const auto& test_info) {
                             return std::string(test_info.param.variant);
                         });

TEST(PublishedPerftDeep, InternationalDepth9) {
    const Variant v{BaseVariant::international, false};
    EXPECT_EQ(perft(v, initial_position(v), 9), 41022423u);
}

}  // namespace
}  // namespace damas
