// Freeing the table files a handle stops using (refresh, a reopened table) once no probe can
// still hold them, without slowing the probes (epoch-based reclamation).
//
// Owns: the retired files until they are freed. Layout: a global epoch and, per lane of threads
// (a thread's lane is fixed, 64 lanes on their own cache lines), two counts of the probes
// running, one per parity of the epoch they started in. A probe (a Reader) adds one to its
// lane's count of the current epoch's parity and takes it back at its end: two uncontended
// atomic adds, no lock, no allocation. A file is retired after it is unpublished (no new probe
// can find it) and tagged with the epoch then; the epoch moves on only when the probes of the
// other parity have all ended, so once it has moved twice past the tag, every probe that could
// have seen the file has ended and the file is freed.
//
// Why: a probe holds a plain pointer to a table file for its whole length; refresh must not
// free it under the probe, and a reference count per probe would make every thread write one
// shared cache line per table.
//
// Thread safety: every member function may be called from any number of threads at once.
// reclaim_all() must not be called by a thread inside a Reader.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "table/table_file.hpp"

namespace damas {

class RetiredFiles {
  public:
    // The span of one probe: the files it finds stay alive until it ends.
    class Reader {
      public:
        explicit Reader(RetiredFiles& r) noexcept;
        ~Reader() { count_->fetch_sub(1, std::memory_order_release); }
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;

      private:
        std::atomic<std::uint32_t>* count_;
    };

    ~RetiredFiles();

    // Keeps file until no Reader can hold it. The caller has already unpublished it.
    void retire(std::unique_ptr<const TableFile> file);
    // Frees what can be freed now, without waiting (never blocks on a Reader).
    void try_reclaim() noexcept;
    // Frees every file retired so far, waiting for the probes that may hold them to end.
    void reclaim_all();
    std::size_t retired() const;  // files waiting to be freed

  private:
    static constexpr int lanes = 64;
    struct alignas(64) Lane {
        std::array<std::atomic<std::uint32_t>, 2> count{};
    };
    bool advance_locked() noexcept;  // moves the epoch on if it can; holds mutex_
    void free_locked() noexcept;     // frees what is two epochs old; holds mutex_

    std::array<Lane, lanes> lanes_{};
    std::atomic<std::uint64_t> epoch_{0};
    std::atomic<bool> pending_{false};  // files are waiting (checked by each Reader)
    mutable std::mutex mutex_;
    std::vector<std::pair<std::uint64_t, std::unique_ptr<const TableFile>>> files_;
};

}  // namespace damas
