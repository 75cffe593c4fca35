// Small databases generated in-process for the tests, with no progress shown: the pure tables
// (damas gen) and the rule tables (damas gen-rules) of every class up to a number of pieces, or
// of the options a test sets itself.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gen/limits/rule_generate.hpp"
#include "gen/options.hpp"
#include "gen/run/summary.hpp"
#include "limits/draw_rules.hpp"
#include "rules/variant.hpp"

namespace damas::test {

// Every class of v with 2..pieces pieces into dir, on `threads` threads; the rest as
// GenerateOptions has it.
GenerateOptions generate_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads = 2);
GenerateSummary generate_quietly(const GenerateOptions& o);
GenerateSummary generate_quietly(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads = 2, WdlCodec codec = automatic_wdl_codec);

// The database of every class of v with 2..pieces pieces as generate_quietly(v, pieces, dir)
// writes it, made once for the whole suite by the ctest fixture test_databases
// (make_test_databases, in build/tests/fixtures/databases) for the sets shared_database_sets()
// lists; made here, once a process, for another set or when the fixture has not run (a test
// binary run alone). Tests only read it.
const std::filesystem::path& shared_database(const Variant& v, int pieces);
// Every variant up to 3 pieces, and up to 4 on the 8x8 boards but the turkish one (the sets the
// generator tests compare on: 64 and 50 squares take 3).
std::vector<std::pair<Variant, int>> shared_database_sets();
// Makes the fixture's databases (make_test_databases), each with a marker once complete.
void make_shared_databases();

// The rule tables of every class of v with 2..pieces pieces, whose pure tables are in dir.
RuleGenerateOptions rule_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads = 2);
RuleGenerateSummary generate_rules_quietly(const RuleGenerateOptions& o);
RuleGenerateSummary generate_rules_quietly(const Variant& v, int pieces,
                                           const std::filesystem::path& dir,
                                           Edition edition = Edition::seed);

// A variant's name as a test name ("english_giveaway"), for the tests run on every variant.
inline std::string variant_test_name(const ::testing::TestParamInfo<Variant>& info) {
    std::string s = info.param.name();
    for (char& c : s)
        if (c == '-') c = '_';
    return s;
}

}  // namespace damas::test
