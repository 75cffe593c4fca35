// Helpers shared by the generator tests: a scratch folder, generating a set in-process, reading
// a class's files back, running the binary.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "gen/run/generate.hpp"
#include "gen/process/progress.hpp"
#include "index/class_index.hpp"
#include "table/table_file.hpp"

namespace damas::test {

// A fresh folder under the system temporary folder, removed at the end.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& name) {
        std::string leaf = "damas-gentest-";
        leaf += name;
        leaf += '-';
        leaf += std::to_string(::getpid());
        path = std::filesystem::temp_directory_path() / leaf;
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

// A variant's name as a test name ("english_giveaway").
inline std::string variant_test_name(const ::testing::TestParamInfo<Variant>& info) {
    std::string s = info.param.name();
    for (char& c : s)
        if (c == '-') c = '_';
    return s;
}

inline GenerateSummary generate_quietly(const Variant& v, int pieces,
                                        const std::filesystem::path& dir, int threads = 2,
                                        WdlCodec codec = automatic_wdl_codec) {
    GenerateOptions o;
    o.variant = v;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = threads;
    o.wdl_codec = codec;
    Progress progress(Progress::Mode::quiet);
    return generate(o, progress);
}

// Both files of one class, read whole (wdl values as read_wdl_values gives them).
struct ClassTables {
    Material material;
    std::vector<std::uint8_t> wdl;
    std::vector<std::uint16_t> dtw;
};

inline ClassTables read_class(const std::filesystem::path& dir, const Variant& v, Material m) {
    ClassTables t{m, {}, {}};
    const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl));
    const TableFile dtw(table_path(dir, v, m.name(), Metric::dtw));
    t.wdl = read_wdl_values(wdl, dtw);  // from the dtw's parity in the mirror layout
    t.dtw.resize(dtw.size());
    dtw.read_all(t.dtw);
    return t;
}

inline std::vector<char> file_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every regular file under dir (relative path -> bytes).
inline std::map<std::string, std::vector<char>> tree_bytes(const std::filesystem::path& dir) {
    std::map<std::string, std::vector<char>> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            out[std::filesystem::relative(e.path(), dir).string()] = file_bytes(e.path());
    return out;
}

// Runs the damas binary with arguments (shell words), output discarded; the exit code, or -1.
inline int run_damas(const std::string& args) {
    std::string command = DAMAS_BINARY;
    command += ' ';
    command += args;
    command += " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Starts the damas binary with `args` (output discarded) and kills it with SIGKILL after
// `delay`. Returns whether the process was still running when killed (false: it had finished).
inline bool run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay) {
    std::vector<char*> argv{const_cast<char*>(DAMAS_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::execv(DAMAS_BINARY, argv.data());
        ::_exit(127);
    }
    EXPECT_GT(pid, 0);
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace damas::test
