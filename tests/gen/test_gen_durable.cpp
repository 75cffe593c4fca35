// Durable writes (issue 23): the generator and gen-rules fsync every table file before its
// rename and its folder after it, each step checked, unless the run asks for none (--no-sync,
// scratch runs), which writes the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gen/limits/rule_generate.hpp"
#include "gen/write/writer.hpp"
#include "gen_fixtures.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

using test::ScratchDir;

const Variant english{BaseVariant::english, false};

int table_files(const std::filesystem::path& folder) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(folder))
        n += e.path().extension() != ".tmp";
    return n;
}

GenerateOptions options(const std::filesystem::path& dir, bool durable) {
    GenerateOptions o;
    o.variant = english;
    o.max_pieces = 3;
    o.dir = dir;
    o.threads = 2;
    o.durable = durable;
    return o;
}

TEST(DurableWrites, TheGeneratorSyncsEveryFileAndItsFolder) {
    ScratchDir synced("durable-on"), scratch("durable-off");
    Progress quiet(Progress::Mode::quiet);
    const std::uint64_t before = durable_syncs();
    generate(options(synced.path, true), quiet);
    const int files = table_files(synced.path / "english");
    ASSERT_GT(files, 0);
    EXPECT_GE(durable_syncs() - before, 2u * static_cast<unsigned>(files));

    const std::uint64_t between = durable_syncs();
    generate(options(scratch.path, false), quiet);
    EXPECT_EQ(durable_syncs(), between);  // --no-sync
    EXPECT_EQ(table_files(scratch.path / "english"), files);
    for (const auto& e : std::filesystem::directory_iterator(synced.path / "english"))
        EXPECT_EQ(test::slurp(e.path()),
                  test::slurp(scratch.path / "english" / e.path().filename()))
            << e.path();
}

TEST(DurableWrites, GenRulesSyncsEveryFile) {
    ScratchDir dir("durable-rules");
    Progress quiet(Progress::Mode::quiet);
    generate(options(dir.path, false), quiet);
    const int pure = table_files(dir.path / "english");
    RuleGenerateOptions r;
    r.variant = english;
    r.max_pieces = 3;
    r.dir = dir.path;
    r.threads = 2;
    const std::uint64_t before = durable_syncs();
    generate_rules(r, quiet);
    const int rule_files = table_files(dir.path / "english") - pure;
    ASSERT_GT(rule_files, 0);
    EXPECT_GE(durable_syncs() - before, 2u * static_cast<unsigned>(rule_files));
}

TEST(DurableWrites, TheCommandsTakeNoSync) {
    ScratchDir dir("durable-cli");
    for (const char* command : {"gen", "gen-rules"}) {
        const std::string args = std::string(command) + " -q --no-sync -v english -p 2 -t 1 -d '" +
                                 dir.path.string() + "'";
        EXPECT_EQ(test::run_damas(args), 0) << args;
    }
    EXPECT_TRUE(std::filesystem::exists(dir.path / "english" / "0101.dtr"));
}

TEST(DurableWrites, AFolderThatCannotBeSyncedIsAnError) {
    ScratchDir dir("durable-missing");
    EXPECT_THROW(sync_folder(dir.path / "none"), Error);
    const std::uint64_t before = durable_syncs();
    sync_folder(dir.path);
    EXPECT_EQ(durable_syncs(), before + 1);
}

}  // namespace
}  // namespace damas
