// `damas verify` and the folder's set of files (folder/check.hpp, folder/manifest.hpp): every
// kind of damage issue 20 lists is reported with the file named and verify fails; intact folders
// of every variant give no alarm, with and without a manifest; a full or read-only disk is one
// clear error. One writer at a time (folder/lock.hpp): test_folder_lock.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "folder/manifest.hpp"
#include "gen/run/generate.hpp"
#include "gen/verify/verify.hpp"
#include "gen/write/writer.hpp"
#include "table/table_file.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

namespace fs = std::filesystem;
using test::generate_rules_quietly;
using test::ScratchDir;

// The issues of one kind naming a file whose name ends with `file`.
bool has_issue(const VerifyReport& r, const std::string& kind, const std::string& file) {
    return std::any_of(r.issues.begin(), r.issues.end(), [&](const FolderIssue& i) {
        return i.kind == kind && i.file.size() >= file.size() &&
               i.file.compare(i.file.size() - file.size(), file.size(), file) == 0;
    });
}

std::string lines(const VerifyReport& r) {
    std::string s;
    for (const FolderIssue& i : r.issues) s += i.line() + "\n";
    for (const std::string& p : r.problems) s += p + "\n";
    return s;
}

// A russian 2-3 folder with its rule tables: small, and it has every file kind.
struct RussianFolder {
    ScratchDir scratch{"folder-check"};
    Variant v{BaseVariant::russian, false};
    fs::path folder = scratch.path / "russian";
    RussianFolder() {
        test::generate_quietly(v, 3, scratch.path);
        generate_rules_quietly(v, 3, scratch.path);
    }
    VerifyReport verify() const { return verify_database(scratch.path, false); }
};

TEST(FolderCheck, IntactFolderWithManifestIsOk) {
    RussianFolder f;
    EXPECT_TRUE(fs::exists(f.folder / manifest_name));
    const Manifest m = read_manifest(f.folder / manifest_name);
    EXPECT_TRUE(m.runs.at("gen").complete);
    EXPECT_TRUE(m.runs.at("gen-rules").complete);
    EXPECT_EQ(m.files.at("0201.wdl").size, fs::file_size(f.folder / "0201.wdl"));
    EXPECT_EQ(m.files.at("0201.wdl").xxh64, file_xxh64(f.folder / "0201.wdl"));
    const VerifyReport r = f.verify();
    EXPECT_TRUE(r.ok()) << lines(r);
    EXPECT_TRUE(r.notes.empty());
}

TEST(FolderCheck, MissingFilesOfEveryKind) {
    for (const char* name : {"0102.wdl", "0102.dtw", "0102.dtr"}) {
        RussianFolder f;
        fs::remove(f.folder / name);
        const VerifyReport r = f.verify();
        EXPECT_FALSE(r.ok()) << name;
        EXPECT_TRUE(has_issue(r, "missing", name)) << lines(r);
    }
}

TEST(FolderCheck, CopiedOverAnotherClass) {
    RussianFolder f;
    fs::copy_file(f.folder / "0201.wdl", f.folder / "1101.wdl",
                  fs::copy_options::overwrite_existing);
    const VerifyReport r = f.verify();
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "mismatch", "1101.wdl")) << lines(r);
    EXPECT_TRUE(has_issue(r, "checksum", "1101.wdl") || has_issue(r, "size", "1101.wdl"));
}

TEST(FolderCheck, MirrorPairSwapped) {
    for (const char* ext : {".wdl", ".dtw", ".dtr"}) {
        RussianFolder f;
        const fs::path a = f.folder / (std::string("0102") + ext);
        const fs::path b = f.folder / (std::string("0201") + ext);
        const fs::path t = f.folder / "swap";
        fs::rename(a, t);
        fs::rename(b, a);
        fs::rename(t, b);
        const VerifyReport r = f.verify();
        EXPECT_FALSE(r.ok()) << ext;
        EXPECT_TRUE(has_issue(r, "mismatch", std::string("0102") + ext)) << lines(r);
        EXPECT_TRUE(has_issue(r, "mismatch", std::string("0201") + ext)) << lines(r);
    }
}

// A pair whose two mtc files both have the mirror layout (its values nowhere): a layout issue.
TEST(FolderCheck, BothMtcFilesOfAPairMirrored) {
    ScratchDir scratch("folder-check-mtc");
    const Variant v{BaseVariant::russian, false};
    GenerateOptions o = test::generate_options(v, 3, scratch.path);
    o.metric = Metric::mtc;
    test::generate_quietly(o);
    ASSERT_TRUE(verify_database(scratch.path, false).ok());
    const fs::path a = scratch.path / "russian" / "0102.mtc";
    const fs::path b = scratch.path / "russian" / "0201.mtc";
    ASSERT_NE(TableFile(a).holds_values(), TableFile(b).holds_values());
    const fs::path stored = TableFile(a).holds_values() ? a : b;
    const TableHeader h = TableFile(stored).header();
    write_mirror_table(stored, TableInfo{v, h.material, "test"}, Metric::mtc, h, false);
    const VerifyReport r = verify_database(scratch.path, false);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "layout", "0102.mtc")) << lines(r);
}

TEST(FolderCheck, DtwUnderAWdlName) {
    RussianFolder f;
    fs::copy_file(f.folder / "0201.dtw", f.folder / "0201.wdl",
                  fs::copy_options::overwrite_existing);
    const VerifyReport r = f.verify();
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "mismatch", "0201.wdl")) << lines(r);
}

TEST(FolderCheck, FileNotInTheManifestAndLeftoverTmp) {
    RussianFolder f;
    fs::copy_file(f.folder / "0201.wdl", f.folder / "0202.wdl");
    std::ofstream(f.folder / "0230.wdl.full.tmp.tmp") << "partial";
    const VerifyReport r = f.verify();
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "not_in_manifest", "0202.wdl")) << lines(r);
    EXPECT_TRUE(has_issue(r, "leftover_tmp", "0230.wdl.full.tmp.tmp")) << lines(r);
}

// What a killed run leaves: the plan recorded, part of the files written (no finish).
TEST(FolderCheck, KilledRunIsIncomplete) {
    RussianFolder f;
    GenerateOptions g;
    g.variant = f.v;
    g.max_pieces = 4;
    begin_run(f.scratch.path, f.v, RunKind{}, planned_classes(g), "{}");
    const VerifyReport r = f.verify();
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "incomplete_run", "russian")) << lines(r);
    EXPECT_TRUE(has_issue(r, "missing", "0202.wdl")) << lines(r);
    EXPECT_EQ(incomplete_runs(f.scratch.path, f.v), std::vector<std::string>{"gen"});
    // A rerun of the plan finishes it.
    test::generate_quietly(f.v, 4, f.scratch.path);
    const VerifyReport after = f.verify();
    EXPECT_TRUE(after.ok()) << lines(after);
    EXPECT_TRUE(incomplete_runs(f.scratch.path, f.v).empty());
}

// The unit files a bounded run killed between units left in units/.
int unit_files(const fs::path& units) {
    if (!fs::is_directory(units)) return 0;
    return static_cast<int>(std::count_if(
        fs::directory_iterator(units), fs::directory_iterator{},
        [](const fs::directory_entry& e) { return e.path().extension() == ".unit"; }));
}

// damas verify's exit code and output (stdout, then stderr).
std::pair<int, std::string> verify_cli(const fs::path& dir) {
    const test::CliRun r = test::run_cli({"verify", "-d", dir.string()});
    return {r.exit_code, r.out + r.err};
}

// A bounded run (gen --in-units) killed while unit files are on disk: verify says the run did not
// finish, naming the units folder (exit 1), not stray files, with or without the manifest; the
// rerun finishes, removes the units and their folder, and verify is content; so it is with an
// empty units folder.
TEST(FolderCheck, KilledRunInUnitsIsUnfinished) {
    ScratchDir scratch("killed-units");
    const Variant v{BaseVariant::english, false};
    const fs::path folder = scratch.path / "english";
    const fs::path units = folder / "units";
    const std::vector<std::string> args{
        "gen", "-q", "--in-units",         "-v", "english", "-p", "4", "-t",
        "2",   "-d", scratch.path.string()};
    // Kills later and later, each on a fresh folder, until one leaves unit files (units are
    // removed pair by pair, so a kill does not always find some).
    for (int ms = 50; ms <= 4000 && unit_files(units) == 0; ms += 50) {
        fs::remove_all(folder);
        test::run_and_kill(args, std::chrono::milliseconds(ms));
    }
    ASSERT_GT(unit_files(units), 0) << "no kill left unit files";

    VerifyReport r = verify_database(scratch.path, false);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "unfinished_units", "english/units")) << lines(r);
    for (const FolderIssue& i : r.issues)
        EXPECT_TRUE(i.kind == "unfinished_units" || i.kind == "incomplete_run" ||
                    i.kind == "missing" || i.kind == "leftover_tmp")
            << i.line();
    EXPECT_EQ(incomplete_runs(scratch.path, v), std::vector<std::string>{"gen"});
    const auto [code, text] = verify_cli(scratch.path);
    EXPECT_EQ(code, 1) << text;
    EXPECT_NE(text.find("unfinished_units: " + units.string() + " ("), std::string::npos) << text;
    EXPECT_NE(text.find("did not finish"), std::string::npos) << text;

    // Without the manifest (a folder of before manifests, or one whose manifest was lost).
    fs::remove(folder / manifest_name);
    r = verify_database(scratch.path, false);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "unfinished_units", "english/units")) << lines(r);
    EXPECT_EQ(incomplete_runs(scratch.path, v), std::vector<std::string>{"gen"});

    // The rerun resumes and finishes: no unit file and no units folder left.
    ASSERT_EQ(test::run_damas("gen -q --in-units -v english -p 4 -t 2 -d " + scratch.path.string()),
              0);
    EXPECT_FALSE(fs::exists(units));
    r = verify_database(scratch.path, false);
    EXPECT_TRUE(r.ok()) << lines(r);
    EXPECT_TRUE(incomplete_runs(scratch.path, v).empty());

    // An empty units folder is no problem.
    fs::create_directories(units);
    r = verify_database(scratch.path, false);
    EXPECT_TRUE(r.ok()) << lines(r);
    EXPECT_EQ(verify_cli(scratch.path).first, 0);
}

TEST(FolderCheck, WithoutAManifestTheNeedsOfThePresentClasses) {
    RussianFolder f;
    fs::remove(f.folder / manifest_name);
    VerifyReport r = f.verify();
    EXPECT_TRUE(r.ok()) << lines(r);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("no manifest"), std::string::npos);
    fs::remove(f.folder / "0101.dtw");  // every 3-piece class needs it
    fs::remove(f.folder / "0201.dtr");
    r = f.verify();
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "missing", "0101.dtw")) << lines(r);
    EXPECT_TRUE(has_issue(r, "missing", "0201.dtr")) << lines(r);
}

// A copy of the folder checked against the manifest alone (a published checksum list).
TEST(FolderCheck, CopyCheckedAgainstAManifest) {
    RussianFolder f;
    ScratchDir copy("folder-copy");
    fs::copy(f.folder, copy.path / "russian");
    const fs::path list = copy.path / "list.json";
    fs::rename(copy.path / "russian" / manifest_name, list);
    VerifyReport r = verify_database(copy.path, false, {}, list);
    EXPECT_TRUE(r.ok()) << lines(r);
    // One byte changed at the end of a block: the size holds, the checksum does not.
    {
        std::fstream io(copy.path / "russian" / "0201.dtw",
                        std::ios::binary | std::ios::in | std::ios::out);
        io.seekg(-1, std::ios::end);
        const char c = static_cast<char>(io.get());
        io.seekp(-1, std::ios::end);
        io.put(static_cast<char>(c ^ 1));
    }
    r = verify_database(copy.path, false, {}, list);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(has_issue(r, "checksum", "0201.dtw")) << lines(r);
}

// Zero false alarms: every variant, pure tables and (where the variant has them) rule tables.
class IntactFolders : public ::testing::TestWithParam<Variant> {};

TEST_P(IntactFolders, NoAlarm) {
    const Variant v = GetParam();
    ScratchDir scratch("intact-" + v.name());
    test::generate_quietly(v, 3, scratch.path);
    if (draw_rules(v).any()) generate_rules_quietly(v, 3, scratch.path);
    if (v.base == BaseVariant::international)
        generate_rules_quietly(v, 3, scratch.path, Edition::fmjd);
    VerifyReport r = verify_database(scratch.path, false);
    EXPECT_TRUE(r.ok()) << lines(r);
    EXPECT_GT(r.files, 0);
    fs::remove(scratch.path / v.name() / manifest_name);
    r = verify_database(scratch.path, false);
    EXPECT_TRUE(r.ok()) << "without the manifest:\n" << lines(r);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, IntactFolders, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

// A small tmpfs at `at` (root only; false where mounting is not allowed: the test skips).
bool mount_tmpfs(const fs::path& at, const std::string& options) {
    fs::create_directories(at);
    const std::string command =
        "mount -t tmpfs -o " + options + " tmpfs " + at.string() + " >/dev/null 2>&1";
    return ::geteuid() == 0 && std::system(command.c_str()) == 0;
}

void unmount(const fs::path& at) {
    const std::string command = "umount " + at.string() + " >/dev/null 2>&1";
    [[maybe_unused]] const int rc = std::system(command.c_str());
}

// damas gen of english 2..pieces into dir fails with exit code 2 and one line that says `why`.
void expect_gen_fails(const fs::path& dir, int pieces, const std::string& why) {
    const test::CliRun run = test::run_cli(
        {"gen", "-v", "english", "-p", std::to_string(pieces), "-q", "-d", dir.string()});
    const std::string message = run.out + run.err;
    EXPECT_EQ(run.exit_code, 2) << message;
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
}

// Disk full: gen fails with one line, leaves nothing verify accepts, and a rerun with space
// resumes where it stopped.
TEST(FolderFailures, DiskFullThenResume) {
    ScratchDir scratch("disk-full");
    const fs::path mount = scratch.path / "small";
    if (!mount_tmpfs(mount, "size=96k")) GTEST_SKIP() << "cannot mount a tmpfs here";
    expect_gen_fails(mount, 4, "No space left on device");
    VerifyReport r = verify_database(mount, false);
    EXPECT_FALSE(r.ok());
    const auto files_before =
        std::distance(fs::directory_iterator(mount / "english"), fs::directory_iterator{});
    EXPECT_GT(files_before, 2);  // some classes were written
    ASSERT_EQ(std::system(("mount -o remount,size=16m " + mount.string()).c_str()), 0);
    const GenerateSummary s =
        test::generate_quietly(Variant{BaseVariant::english, false}, 4, mount);
    EXPECT_GT(s.classes_skipped, 0);
    r = verify_database(mount, false);
    EXPECT_TRUE(r.ok()) << lines(r);
    unmount(mount);
}

// A folder that cannot be written: one clear line, exit 2, nothing written.
TEST(FolderFailures, ReadOnlyFolder) {
    ScratchDir scratch("read-only");
    const fs::path mount = scratch.path / "ro";
    if (!mount_tmpfs(mount, "size=1m,ro")) GTEST_SKIP() << "cannot mount a tmpfs here";
    expect_gen_fails(mount, 3, "Read-only file system");
    unmount(mount);
}

}  // namespace
}  // namespace damas
