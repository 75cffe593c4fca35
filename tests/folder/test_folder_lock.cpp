// One writer at a time on a database folder (folder/lock.hpp): a second writer, in-process or a
// second `damas gen` or `gen-rules`, is refused at once and writes nothing; a lock left by a
// process that is gone is taken over.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "folder/lock.hpp"
#include "gen/verify/verify.hpp"
#include "rules/error.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

TEST(FolderLock, SecondWriterRefusedAtOnce) {
    ScratchDir scratch("lock");
    const Variant v{BaseVariant::english, false};
    const FolderLock first(scratch.path, v);
    EXPECT_FALSE(first.stale_holder());
    try {
        const FolderLock second(scratch.path, v);
        ADD_FAILURE() << "two writers";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("being written by another damas (pid " + std::to_string(::getpid())),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("host "), std::string::npos) << what;
    }
    EXPECT_TRUE(lock_holder(scratch.path, v).has_value());
    // gen refuses too, before writing anything.
    EXPECT_THROW(test::generate_quietly(v, 2, scratch.path), Error);
    EXPECT_FALSE(fs::exists(scratch.path / "english" / "0101.wdl"));
}

TEST(FolderLock, StaleLockTakenOver) {
    ScratchDir scratch("stale-lock");
    const Variant v{BaseVariant::english, false};
    fs::create_directories(scratch.path / "english");
    std::ofstream(scratch.path / "english" / lock_name) << "pid 999999 host elsewhere\n";
    EXPECT_FALSE(lock_holder(scratch.path, v).has_value());  // nobody holds it
    {
        const FolderLock lock(scratch.path, v);
        ASSERT_TRUE(lock.stale_holder().has_value());
        EXPECT_EQ(*lock.stale_holder(), "pid 999999 host elsewhere");
    }
    test::generate_quietly(v, 2, scratch.path);  // takes it over too
    EXPECT_TRUE(verify_database(scratch.path, false).ok());
}

// The CLI: two `damas gen` on one folder, the second refused at once with exit 2.
TEST(FolderLock, SecondGenProcessRefused) {
    ScratchDir scratch("lock-cli");
    const Variant v{BaseVariant::english, false};
    const FolderLock held(scratch.path, v);  // as a running gen would
    EXPECT_EQ(test::run_damas("gen -v english -p 2 -q -d " + scratch.path.string()), 2);
    EXPECT_EQ(test::run_damas("gen-rules -v english -p 2 -q -d " + scratch.path.string()), 2);
}

}  // namespace
}  // namespace damas
