#include "tests/support/generate.hpp"

#include <fstream>
#include <map>
#include <memory>

#include "gen/process/progress.hpp"
#include "gen/run/generate.hpp"
#include "tests/support/scratch.hpp"

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

// The fixture's folder for a set, and the marker written once it is complete.
std::filesystem::path fixture_dir(const Variant& v, int pieces) {
    return std::filesystem::path(DAMAS_TEST_DATABASES) / (v.name() + "-" + std::to_string(pieces));
}

std::filesystem::path complete_marker(const Variant& v, int pieces) {
    std::filesystem::path p = fixture_dir(v, pieces);
    p += ".done";
    return p;
}

// The fixture's set is used only if it was made after this test binary was built: a binary run
// alone after a rebuild (of the generator, say) never reads files an older build made.
bool fixture_is_current(const Variant& v, int pieces) {
    std::error_code ec;
    const auto made = std::filesystem::last_write_time(complete_marker(v, pieces), ec);
    if (ec) return false;
    const auto built =
        std::filesystem::last_write_time(std::filesystem::read_symlink("/proc/self/exe"), ec);
    return !ec && made >= built;
}

}  // namespace

const std::filesystem::path& shared_database(const Variant& v, int pieces) {
    static std::map<std::string, std::filesystem::path> fixture;
    static std::map<std::string, std::unique_ptr<ScratchDir>> made;
    const std::string key = v.name() + "-" + std::to_string(pieces);
    if (const auto it = fixture.find(key); it != fixture.end()) return it->second;
    if (fixture_is_current(v, pieces)) return fixture[key] = fixture_dir(v, pieces);
    auto& dir = made[key];
    if (!dir) {
        dir = std::make_unique<ScratchDir>("shared-" + key);
        generate_quietly(v, pieces, dir->path);
    }
    return dir->path;
}

std::vector<std::pair<Variant, int>> shared_database_sets() {
    std::vector<std::pair<Variant, int>> sets;
    for (const Variant& v : all_variants()) {
        sets.emplace_back(v, 3);
        if (v.info().board.width == 8 && v.base != BaseVariant::turkish) sets.emplace_back(v, 4);
    }
    return sets;
}

void make_shared_databases() {
    for (const auto& [v, pieces] : shared_database_sets()) {
        const std::filesystem::path dir = fixture_dir(v, pieces);
        std::filesystem::remove(complete_marker(v, pieces));
        std::filesystem::remove_all(dir);
        generate_quietly(v, pieces, dir);
        std::ofstream(complete_marker(v, pieces)) << "complete\n";
    }
}

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
