#pragma once
// Memory for arrays read and written at random over hundreds of MiB (the solver's states and
// results, the smaller classes a pair looks up): with 4 KiB pages nearly every such access also
// misses the TLB. These helpers ask the kernel for 2 MiB pages (Linux, when transparent huge
// pages are in madvise mode; harmless elsewhere) before the memory is first touched.

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace damas {

inline constexpr std::size_t huge_page = std::size_t{2} << 20;

// Advises 2 MiB pages for the whole 2 MiB-aligned part of [p, p + bytes).
inline void advise_huge_pages(void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + huge_page - 1) & ~(huge_page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge_page - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

// A zero-filled vector of n values, its memory advised as above before the fill touches it.
template <class T>
std::vector<T> huge_vector(std::size_t n) {
    std::vector<T> v;
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));
    v.resize(n);
    return v;
}

// An array of n default-constructed T (which need not be movable), aligned to huge pages.
template <class T>
struct HugeArrayDeleter {
    std::size_t n;
    void operator()(T* p) const {
        std::destroy_n(p, n);
        std::free(p);
    }
};
template <class T>
using HugeArray = std::unique_ptr<T[], HugeArrayDeleter<T>>;
template <class T>
HugeArray<T> make_huge_array(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + huge_page - 1) & ~(huge_page - 1);
    void* p = std::aligned_alloc(huge_page, std::max(bytes, huge_page));
    if (!p) throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    return HugeArray<T>(std::uninitialized_value_construct_n(static_cast<T*>(p), n) - n,
                        HugeArrayDeleter<T>{n});
}

}  // namespace damas
