// One writer at a time per variant folder: `damas gen` and `damas gen-rules` hold an advisory
// lock (flock) on <dir>/<variant>/.damas.lock while they write; the file says who holds it
// ("pid <n> host <name>"), so that a second writer can refuse at once with a clear message.
//
// flock locks belong to the open file and vanish when the holder dies (kill -9 included), so a
// lock file left by a killed run is not held: the next writer takes it, rewrites the holder line
// and says so (stale_holder). The file itself is never removed (removing it could let two
// writers lock two different files).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "rules/variant.hpp"

namespace damas {

inline constexpr const char* lock_name = ".damas.lock";

class FolderLock {
  public:
    // Takes the lock of <dir>/<variant>/ (creating the folder), or throws Error naming the
    // holder: "<folder> is being written by another damas (pid 123 host foo) ...".
    FolderLock(const std::filesystem::path& dir, Variant v);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

    // The holder line found in a lock file that no process held (a killed run's), if any.
    const std::optional<std::string>& stale_holder() const { return stale_; }

  private:
    int fd_ = -1;
    std::optional<std::string> stale_;
};

// The holder line of a folder's lock if a live process holds it, else nothing.
std::optional<std::string> lock_holder(const std::filesystem::path& dir, Variant v);

}  // namespace damas
