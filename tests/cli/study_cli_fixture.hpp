// The databases the study commands (probe, best, line, stats, info, verify) are run on, shared by
// the test files of tests/cli that drive them: an english database of up to 3 pieces without
// rule tables (ProbeCli), and an international one of K+M v K and what it needs with the rule
// tables of the seed's edition (RulesCli). Each is generated once a test process.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "index/class_index.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas {

using test::CliRun;
using test::lines;
using test::ScratchDir;

inline const Variant english{BaseVariant::english, false};
inline const Variant international{BaseVariant::international, false};

// A command's error: exit code 2, nothing on stdout, one line on stderr that names `part`.
inline void expect_error(const CliRun& r, const std::string& part) {
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("damas: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

// Swaps the files of two classes (every metric they have), as a careless copy might: the
// sizes match, only the headers tell.
inline void swap_class_files(const std::filesystem::path& folder, const std::string& a,
                             const std::string& b, const std::vector<std::string>& extensions) {
    for (const std::string& ext : extensions) {
        const std::filesystem::path pa = folder / (a + ext), pb = folder / (b + ext),
                                    tmp = folder / ("swap" + ext);
        std::filesystem::rename(pa, tmp);
        std::filesystem::rename(pb, pa);
        std::filesystem::rename(tmp, pb);
    }
}

// An english database of up to 3 pieces, no rule tables.
class ProbeCli : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("cli");
        test::generate_quietly(english, 3, dir_->path);
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }

    static CliRun damas(const std::vector<std::string>& args) { return test::run_cli(args); }
    // `command --variant english --dir DB fen extra...`
    static CliRun study(const std::string& command, const std::string& fen,
                        std::vector<std::string> extra = {}) {
        std::vector<std::string> args{command, "--variant",         "english",
                                      "--dir", dir_->path.string(), fen};
        args.insert(args.end(), extra.begin(), extra.end());
        return damas(args);
    }

    inline static ScratchDir* dir_ = nullptr;
};

// ---- the move-limit draw rules: probe's counts, its answer under the rules, stats

// An international database of K+M v K and what it needs (2K v K among them), with the rule
// tables of the seed's edition only.
class RulesCli : public ProbeCli {
  protected:
    static void SetUpTestSuite() {
        ProbeCli::SetUpTestSuite();
        rules_dir_ = new ScratchDir("cli-rules");
        GenerateOptions g = test::generate_options(international, 4, rules_dir_->path);
        g.only = Material::parse("1101");
        test::generate_quietly(g);
        RuleGenerateOptions r = test::rule_options(international, 4, rules_dir_->path);
        r.only = g.only;
        test::generate_rules_quietly(r);
    }
    static void TearDownTestSuite() {
        delete rules_dir_;
        rules_dir_ = nullptr;
        ProbeCli::TearDownTestSuite();
    }
    static CliRun probe(const std::string& fen, std::vector<std::string> extra = {},
                        const std::string& command = "probe") {
        std::vector<std::string> args{
            command, "--variant", "international", "--dir", rules_dir_->path.string(), fen};
        args.insert(args.end(), extra.begin(), extra.end());
        return damas(args);
    }
    // A quiet 2K v K position, White to move, whose pure win takes `plies` plies.
    static std::string two_kings_win(int plies) {
        const auto tb = Tablebase::open(rules_dir_->path);
        const ClassIndex index(international.info().board, *Material::parse("0201"));
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position p = index.unindex(i);
            if (MoveGenerator<International>::has_capture(p)) continue;
            const ProbeResult r = tb->probe_dtw(international, p);
            if (r.value == Value::win && r.plies == plies) return to_fen(international, p);
        }
        return {};
    }

    inline static ScratchDir* rules_dir_ = nullptr;
};

}  // namespace damas
