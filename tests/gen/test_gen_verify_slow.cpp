// Deep verify on turkish with up to 4 pieces (slow label: 84 M positions, about 4 minutes to
// generate and 6 to verify on 2 threads); the fast suite verifies english and brazilian with 4
// pieces and turkish with 3 (test_gen_verify).
#include <gtest/gtest.h>

#include <string>

#include "gen/verify/verify.hpp"
#include "gen_fixtures.hpp"
#include "index/material.hpp"

namespace damas {
namespace {

TEST(DeepVerifySlow, Turkish4) {
    const Variant v = *parse_variant("turkish");
    test::ScratchDir dir("turkish-verify-4");
    const GenerateSummary s = test::generate_quietly(v, 4, dir.path);
    const VerifyReport r = verify_database(dir.path, true);
    EXPECT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_EQ(r.files, 2 * static_cast<int>(classes_up_to(4).size()));
    EXPECT_GT(r.positions_checked, s.positions / 2);
}

}  // namespace
}  // namespace damas
