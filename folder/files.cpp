#include "folder/files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rules/error.hpp"

namespace damas {

namespace {
std::atomic<std::uint64_t> durable_syncs_made{0};
}  // namespace

std::filesystem::path default_database_dir() {
    if (const char* env = std::getenv("DAMAS_DB"); env && *env) return env;
    return "db";
}

std::filesystem::path units_dir(const std::filesystem::path& dir, const Variant& v) {
    return dir / v.name() / "units";
}

std::filesystem::path unit_path(const std::filesystem::path& dir, const Variant& v, Material pair,
                                int slice, Metric distance) {
    return units_dir(dir, v) / (pair.name() + "." + std::to_string(slice) +
                                (distance == Metric::mtc ? ".mtc" : "") + ".unit");
}

std::filesystem::path solved_class_path(const std::filesystem::path& dir, const Variant& v,
                                        Material m, Metric distance) {
    const char* form = distance == Metric::mtc ? ".mtc" : distance == Metric::wdl ? ".wdl" : "";
    return units_dir(dir, v) / (m.name() + form + ".solved");
}

void sync_folder(const std::filesystem::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw Error(folder.string() +
                    ": cannot open the folder to sync it: " + std::strerror(errno));
    const int synced = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (synced != 0)
        throw Error(folder.string() + ": fsync of the folder failed: " + std::strerror(err));
    count_durable_sync();
}

void count_durable_sync() {
    ++durable_syncs_made;
}

std::uint64_t durable_syncs() {
    return durable_syncs_made.load();
}

const char* generator_version() {
    return "damas-gen 0.1.0";
}

}  // namespace damas
