// Generation in units writes the same files as generation with every pair held whole, on the
// larger sets: every class of every variant with up to 5 pieces (4 on 10x10 and turkish), and
// so does the byte-a-position solver (gen/solve/compact/compact_solver.hpp) on every 2-4 set (2-3
// on 10x10 and turkish), and on turkish 0203 + 0302. About 30 minutes on 2 threads: label slow.
#include "units_compare.hpp"

namespace damas {
namespace {

class UnitsAgreeLarger : public ::testing::TestWithParam<Variant> {};

TEST_P(UnitsAgreeLarger, SameFilesAsPairsHeldWhole) {
    const Variant v = GetParam();
    test::expect_same_files_in_units(v, test::small_set(v) ? 4 : 5);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, UnitsAgreeLarger, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

class CompactAgreesLarger : public ::testing::TestWithParam<Variant> {};

TEST_P(CompactAgreesLarger, SameFilesAsPairsHeldWhole) {
    const Variant v = GetParam();
    test::expect_same_files_in_units(v, test::small_set(v) ? 3 : 4, PairSolving::units_compact);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CompactAgreesLarger, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

// A turkish pair without men held a quarter (gen/solve/king_quarters.hpp) where the side of 3 kings
// decides, Black in the first class (the 2-4 sets above have only a side of 1 king decide):
// 0203 + 0302, 151 M positions.
TEST(CompactAgreesLarger, TurkishKingsHeldAQuarter) {
    test::expect_same_files_in_units(parse_variant("turkish").value(), 5,
                                     PairSolving::units_compact, automatic_wdl_codec, 0,
                                     Material::parse("0203"));
}

// The small-class paths test_gen_units takes on english, turkish and international, on the other
// sets.
TEST(UnitsCodecsLarger, ContextCodecAndEstimatesFromUnitsRussian) {
    test::expect_wdl_codecs_from_units(parse_variant("russian").value());
}

TEST(CompactAgreesLarger, OverflowMapAndSplitChunksGiveaway) {
    for (const char* name : {"turkish-giveaway", "russian-giveaway"})
        test::expect_compact_overflow_and_split_chunks(parse_variant(name).value());
}

TEST(UnitsAgreeLarger, ComponentsStreamedToTheirUnitsRussianItalian) {
    for (const char* name : {"russian", "italian"})
        test::expect_components_streamed(parse_variant(name).value());
}

}  // namespace
}  // namespace damas
