// The verify and gen-rules commands of the damas binary on the databases of
// study_cli_fixture.hpp: verify --deep on named classes, verify on the rule tables, and a rule
// table or pure tables under another class's name.
#include <gtest/gtest.h>

#include <fstream>

#include "study_cli_fixture.hpp"

namespace damas {
namespace {

// verify --deep --class recomputes the classes named; a bad name or --class alone is an error.
TEST_F(ProbeCli, VerifyDeepNamedClasses) {
    const std::string dir = dir_->path.string();
    const CliRun r = damas({"verify", "--dir", dir, "-q", "--deep", "-c", "0201", "-c", "0102"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("positions checked "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verify: ok"), std::string::npos) << r.out;
    const CliRun absent = damas({"verify", "--dir", dir, "-q", "--deep", "-c", "0501"});
    EXPECT_EQ(absent.exit_code, 1);
    EXPECT_NE(absent.err.find("0501: no intact wdl and dtw (or mtc) files"), std::string::npos)
        << absent.err;
    expect_error(damas({"verify", "--dir", dir, "-c", "0201"}), "--class needs --deep");
    expect_error(damas({"verify", "--dir", dir, "--deep", "-c", "02x1"}), "not a class");
}

// A rule table copied over its mirror's name, and pure tables swapped under gen-rules.
TEST_F(RulesCli, RuleReadersRefuseAFileUnderAnotherClassName) {
    const ScratchDir copy("cli-rules-swap");
    std::filesystem::copy(rules_dir_->path, copy.path, std::filesystem::copy_options::recursive);
    const std::filesystem::path folder = copy.path / "international";
    std::filesystem::copy_file(folder / "0102.dtr", folder / "0201.dtr",
                               std::filesystem::copy_options::overwrite_existing);
    const std::string dir = copy.path.string();
    expect_error(
        damas({"stats", "--variant", "international", "--dir", dir, "--class", "0201"}),
        "it holds the international 0102 dtr table, expected the international 0201 dtr table");
    // gen-rules reads the pure tables of the classes it computes.
    for (const char* c : {"0201", "0102"})
        std::filesystem::remove(folder / (std::string(c) + ".dtr"));
    swap_class_files(folder, "0201", "0102", {".wdl", ".dtw"});
    expect_error(
        damas({"gen-rules", "-q", "--variant", "international", "--dir", dir, "--class", "1101"}),
        "the header does not match the file's name");
}

TEST_F(RulesCli, VerifyChecksTheRuleTables) {
    const ScratchDir copy("cli-rules-copy");
    std::filesystem::copy(rules_dir_->path, copy.path, std::filesystem::copy_options::recursive);
    CliRun r = damas({"verify", "--dir", copy.path.string(), "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(copy.path / "international"))
        files += e.path().extension() != ".tmp" && e.path().filename() != "manifest.json" &&
                 e.path().filename() != ".damas.lock";
    EXPECT_NE(r.out.find("files " + std::to_string(files) + ", bad 0"), std::string::npos) << r.out;
    // Damage one byte of a rule table's data.
    const std::filesystem::path dtr = copy.path / "international" / "0201.dtr";
    {
        std::fstream f(dtr, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-8, std::ios::end);
        char c = 0;
        f.read(&c, 1);
        c = static_cast<char>(c ^ 0x5A);
        f.seekp(-8, std::ios::end);
        f.write(&c, 1);
    }
    r = damas({"verify", "--dir", copy.path.string(), "-q"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("bad 1"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("0201.dtr"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace damas
