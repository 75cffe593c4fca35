#include "gen/process/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace damas {

Progress::Mode Progress::detect(bool quiet) {
    if (quiet) return Mode::quiet;
    return isatty(STDERR_FILENO) ? Mode::bar : Mode::lines;
}

void Progress::start(const std::string& label, std::uint64_t total) {
    std::lock_guard lock(mutex_);
    label_ = label;
    total_ = total;
    start_ = last_ = std::chrono::steady_clock::now();
}

void Progress::update(std::uint64_t done) {
    if (mode_ == Mode::quiet) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock) return;
    const auto now = std::chrono::steady_clock::now();
    const auto every =
        mode_ == Mode::bar ? std::chrono::milliseconds(200) : std::chrono::seconds(10);
    if (now - last_ < every) return;
    last_ = now;
    draw(done, false);
}

void Progress::finish(const std::string& note) {
    if (mode_ == Mode::quiet) return;
    std::lock_guard lock(mutex_);
    if (mode_ == Mode::bar) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "%s%s\n", prefix_.c_str(), note.c_str());
}

void Progress::message(const std::string& line) {
    if (mode_ == Mode::quiet) return;
    std::lock_guard lock(mutex_);
    if (mode_ == Mode::bar) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "%s%s\n", prefix_.c_str(), line.c_str());
}

void Progress::draw(std::uint64_t done, bool final) {
    const double secs = std::chrono::duration<double>(last_ - start_).count();
    const double pct =
        total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0;
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0.0;
    if (mode_ == Mode::bar) {
        constexpr int width = 30;
        const int filled = static_cast<int>(pct / 100.0 * width);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(width, '.');
        std::fprintf(stderr, "\r\033[K%s%s [%s] %5.1f%% %.2f M pos/s ETA %.0f s", prefix_.c_str(),
                     label_.c_str(), bar.c_str(), pct, rate / 1e6, eta);
    } else {
        std::fprintf(stderr, "%s%s %.1f%% %.2f M pos/s ETA %.0f s\n", prefix_.c_str(),
                     label_.c_str(), pct, rate / 1e6, eta);
    }
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

}  // namespace damas
