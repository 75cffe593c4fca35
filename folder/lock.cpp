#include "folder/lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "rules/error.hpp"

namespace damas {
namespace {

std::string read_all(int fd) {
    std::string s;
    char buf[256];
    ::lseek(fd, 0, SEEK_SET);
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        s.append(buf, static_cast<std::size_t>(n));
    }
    while (!s.empty() && (s.back() == '\n' || s.back() == '\0')) s.pop_back();
    return s;
}

std::string this_holder() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "?");
    return "pid " + std::to_string(::getpid()) + " host " + host;
}

}  // namespace

FolderLock::FolderLock(const std::filesystem::path& dir, Variant v) {
    const std::filesystem::path folder = dir / v.name();
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error(folder.string() + ": cannot create the folder: " + ec.message());
    const std::filesystem::path file = folder / lock_name;
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw Error(file.string() + ": cannot take the writer's lock: " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const std::string holder = read_all(fd_);
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK)
            throw Error(folder.string() + " is being written by another damas (" +
                        (holder.empty() ? std::string("holder unknown") : holder) +
                        "); wait for it to finish, one writer at a time");
        throw Error(file.string() + ": cannot take the writer's lock: " + std::strerror(err));
    }
    const std::string old = read_all(fd_);
    if (!old.empty()) stale_ = old;  // the lock was free: its holder is gone
    const std::string line = this_holder() + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, line.data(), line.size(), 0) < 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        throw Error(file.string() + ": cannot write the writer's lock: " + std::strerror(err));
    }
}

FolderLock::~FolderLock() {
    if (fd_ < 0) return;
    // Empty: a later writer finds no stale holder after a clean end.
    [[maybe_unused]] const int rc = ::ftruncate(fd_, 0);
    ::close(fd_);  // releases the flock
}

std::optional<std::string> lock_holder(const std::filesystem::path& dir, Variant v) {
    const std::filesystem::path file = dir / v.name() / lock_name;
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::optional<std::string> out;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        out = read_all(fd);
    } else {
        ::flock(fd, LOCK_UN);
    }
    ::close(fd);
    return out;
}

}  // namespace damas
