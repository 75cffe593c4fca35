// Scratch folders and whole files, for every test: a fresh folder under the system temporary
// folder, removed at the end; a file's bytes read or written at once; a folder's tree of files.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace damas::test {

// A fresh folder under the system temporary folder (damas-test-<name>-<pid>), removed at the
// end. ctest runs each test in a process of its own, so the pid keeps concurrent tests apart;
// within a process, two folders alive at once need two names.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& name);
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

// The file's bytes as a string ("" if it cannot be read).
std::string slurp(const std::filesystem::path& p);

// The file's bytes (none if it cannot be read).
std::vector<char> file_bytes(const std::filesystem::path& p);

// Replaces the file's bytes (the same file, truncated: its inode is kept).
void write_bytes(const std::filesystem::path& p, const std::vector<char>& bytes);

// Every regular file under dir (path relative to dir -> bytes).
std::map<std::string, std::vector<char>> tree_bytes(const std::filesystem::path& dir);

// The lines of a text, without their '\n'.
std::vector<std::string> lines(const std::string& text);

}  // namespace damas::test
