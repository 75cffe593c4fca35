// Little-endian load and store of unsigned integers in byte buffers, for the file format.
#pragma once

#include <cstddef>
#include <cstdint>

namespace damas::le {

template <class T>
inline void store(std::byte* p, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<std::byte>(v >> (8 * i));
}

template <class T>
inline T load(const std::byte* p) {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v = static_cast<T>(v | static_cast<T>(static_cast<T>(p[i]) << (8 * i)));
    return v;
}

}  // namespace damas::le
