#include "tests/support/generate.hpp"

#include "gen/process/progress.hpp"
#include "gen/run/generate.hpp"

namespace damas::test {
namespace {

// GenerateOptions or RuleGenerateOptions for every class of v up to `pieces` in dir.
template <class Options>
Options options_for(const Variant& v, int pieces, const std::filesystem::path& dir, int threads) {
    Options o;
    o.variant = v;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = threads;
    return o;
}

}  // namespace

GenerateOptions generate_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads) {
    return options_for<GenerateOptions>(v, pieces, dir, threads);
}

RuleGenerateOptions rule_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads) {
    return options_for<RuleGenerateOptions>(v, pieces, dir, threads);
}

GenerateSummary generate_quietly(const GenerateOptions& o) {
    Progress quiet(Progress::Mode::quiet);
    return generate(o, quiet);
}

RuleGenerateSummary generate_rules_quietly(const RuleGenerateOptions& o) {
    Progress quiet(Progress::Mode::quiet);
    return generate_rules(o, quiet);
}

GenerateSummary generate_quietly(const Variant& v, int pieces, const std::filesystem::path& dir,
                                 int threads, WdlCodec codec) {
    GenerateOptions o = generate_options(v, pieces, dir, threads);
    o.wdl_codec = codec;
    return generate_quietly(o);
}

RuleGenerateSummary generate_rules_quietly(const Variant& v, int pieces,
                                           const std::filesystem::path& dir, Edition edition) {
    RuleGenerateOptions r = rule_options(v, pieces, dir);
    r.edition = edition;
    return generate_rules_quietly(r);
}

}  // namespace damas::test
