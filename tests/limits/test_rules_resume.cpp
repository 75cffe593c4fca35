// `damas gen-rules` resumes and is deterministic, as `damas gen` is (tests/gen/test_gen_resume):
//  - a run killed with SIGKILL at several moments, then rerun, gives rule files byte-identical
//    to an uninterrupted run; after every kill each rule file present is already identical (a
//    kill loses at most the pair in progress) and `damas verify` passes;
//  - --threads 1 and --threads 2 give byte-identical files;
//  - a damaged .dtr file is reported by `damas verify` and rewritten by a rerun, a missing one
//    is rewritten, a leftover .tmp is ignored, and the complete pairs are skipped (their values
//    read back for the larger classes, captures recomputed: the files are identical after).
// The set: portuguese with up to 4 pieces (41 classes; the forcada classes have two rule
// files), about 8 s per rule run on 2 threads.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gen/verify/verify.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using test::ScratchDir;
using test::tree_bytes;
using Tree = std::map<std::string, std::vector<char>>;

constexpr const char* variant = "portuguese";

std::string args_for(const char* command, const std::filesystem::path& dir, int threads) {
    std::string args = command;
    args += " -q -v ";
    args += variant;
    args += " -p 4 -t ";
    args += std::to_string(threads);
    args += " -d ";
    args += dir.string();
    return args;
}

// The rule files only.
Tree rule_files(const Tree& t) {
    Tree out;
    for (const auto& [name, bytes] : t)
        if (name.ends_with(".dtr") || name.ends_with(".dtr-forcada")) out[name] = bytes;
    return out;
}

// A scratch folder with the pure tables copied from pure_from (or generated), and, if asked, the
// rule tables made in it.
struct RuleSet {
    ScratchDir dir;
    RuleSet(const std::string& name, const std::filesystem::path* pure_from, int threads)
        : dir(name) {
        if (pure_from)
            std::filesystem::copy(*pure_from, dir.path, std::filesystem::copy_options::recursive);
        else
            EXPECT_EQ(test::run_damas(args_for("gen", dir.path, 2)), 0);
        if (threads > 0) {
            EXPECT_EQ(test::run_damas(args_for("gen-rules", dir.path, threads)), 0);
        }
    }
};

// Whether the fixture's folders are complete and made by the damas binary built now ("done" is
// written last, and is newer than the binary unless it was rebuilt since).
bool fixture_is_current(const std::filesystem::path& done) {
    std::error_code ec;
    const auto made = std::filesystem::last_write_time(done, ec);
    if (ec) return false;
    const auto built = std::filesystem::last_write_time(DAMAS_BINARY, ec);
    return !ec && made >= built;
}

// The pure tables and the reference rule tables (--threads 2), made once for the tests of this
// file and mpi_gen_rules by the ctest fixture portuguese4_rules_database (PORTUGUESE4_DB/pure and
// /rules); made here when the binary runs alone.
struct Reference {
    std::unique_ptr<RuleSet> pure_made, rules_made;
    std::filesystem::path pure, rules;
    Reference() {
        const std::filesystem::path fixture = PORTUGUESE4_DB;
        if (fixture_is_current(fixture / "done")) {
            pure = fixture / "pure";
            rules = fixture / "rules";
            return;
        }
        pure_made = std::make_unique<RuleSet>("rules-resume-pure", nullptr, 0);
        pure = pure_made->dir.path;
        rules_made = std::make_unique<RuleSet>("rules-resume-reference", &pure, 2);
        rules = rules_made->dir.path;
    }
};

Tree rules_in(const std::filesystem::path& dir) {
    return rule_files(tree_bytes(dir));
}

// Starts `damas gen-rules` on dir and kills it with SIGKILL after `delay` (test::run_and_kill).
bool run_and_kill(const std::filesystem::path& dir, std::chrono::milliseconds delay) {
    return test::run_and_kill(
        {"gen-rules", "-q", "-v", variant, "-p", "4", "-t", "2", "-d", dir.string()}, delay);
}

class RulesResume : public testing::Test {
  protected:
    static void SetUpTestSuite() { reference_ = new Reference; }
    static void TearDownTestSuite() { delete reference_; }
    static Reference* reference_;
};
Reference* RulesResume::reference_ = nullptr;

TEST_F(RulesResume, KilledRunsResumeToIdenticalFiles) {
    const Tree reference = rules_in(reference_->rules);
    // 41 classes, one rule file each, and a second for the forcada's classes: 0301 and 0103,
    // and 0201, 0102 and 0101 where it runs on after the lone king's captures.
    EXPECT_EQ(reference.size(), 46u);
    const RuleSet killed("rules-resume-killed", &reference_->pure, 0);
    int interrupted = 0;
    for (const int ms : {400, 1500, 3500}) {
        interrupted += run_and_kill(killed.dir.path, std::chrono::milliseconds(ms)) ? 1 : 0;
        for (const auto& [name, bytes] : rules_in(killed.dir.path)) {
            const auto it = reference.find(name);
            ASSERT_NE(it, reference.end()) << name;
            EXPECT_TRUE(it->second == bytes) << "after a kill at " << ms << " ms: " << name;
        }
        // No file reported as corrupt; the killed run reported as incomplete (exit 1).
        const VerifyReport r = verify_database(killed.dir.path, false);
        EXPECT_EQ(r.files_bad, 0) << "after a kill at " << ms << " ms";
    }
    EXPECT_GE(interrupted, 1);
    ASSERT_EQ(test::run_damas(args_for("gen-rules", killed.dir.path, 2)), 0);
    EXPECT_TRUE(rules_in(killed.dir.path) == reference);
}

TEST_F(RulesResume, ThreadCountDoesNotChangeTheBytes) {
    const RuleSet one("rules-resume-threads1", &reference_->pure, 1);
    EXPECT_TRUE(rules_in(one.dir.path) == rules_in(reference_->rules));
}

TEST_F(RulesResume, DamagedMissingAndTmpFiles) {
    const RuleSet set("rules-resume-damaged", &reference_->rules, 0);
    const std::filesystem::path folder = set.dir.path / variant;
    // A bit flipped in the last block of a class others depend on.
    std::vector<char> bytes = test::file_bytes(folder / "0201.dtr");
    bytes[bytes.size() - 5] = static_cast<char>(bytes[bytes.size() - 5] ^ 0x40);
    test::write_bytes(folder / "0201.dtr", bytes);
    const std::string verify = "verify -q -d " + set.dir.path.string();
    EXPECT_EQ(test::run_damas(verify), 1);
    // The forcada's second file missing, its .tmp a leftover; a stray .tmp beside a good file.
    std::filesystem::remove(folder / "0301.dtr-forcada");
    std::ofstream(folder / "0301.dtr-forcada.tmp") << "half written";
    std::ofstream(folder / "1101.dtr.tmp") << "garbage";
    const test::CliRun run =
        test::run_shell(test::damas_command(args_for("gen-rules", set.dir.path, 2) + " --json"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string& json = run.out;
    // Rewritten: the pairs 0102+0201 and 0103+0301; the other 37 classes skipped.
    EXPECT_NE(json.find("\"classes_built\":4,\"classes_skipped\":37"), std::string::npos) << json;
    EXPECT_TRUE(rules_in(set.dir.path) == rules_in(reference_->rules));
    EXPECT_EQ(tree_bytes(set.dir.path).count("portuguese/0301.dtr-forcada.tmp"), 0u);
    // verify names the stray .tmp; without it the folder is intact.
    EXPECT_EQ(test::run_damas(verify), 1);
    std::filesystem::remove(folder / "1101.dtr.tmp");
    EXPECT_EQ(test::run_damas(verify), 0);
}

}  // namespace
}  // namespace damas
