// A class's values alone, 2 bits a position, 4 to a byte: position i in bits 2*(i%4)..2*(i%4)+1
// of byte i/4, as in the wdl files' blocks (table/format.hpp). What the store holds of a class a
// pair solved for mtc reads (gen/store/solved_store.hpp): a quarter of a byte where the packed
// outcomes take 2 bytes.
//
// Writing is not atomic: threads that fill one array write bytes of their own (ranges of
// positions that start at multiples of 4).
#pragma once

#include <cstdint>
#include <vector>

#include "table/outcome.hpp"

namespace damas {

constexpr std::uint64_t value_bytes(std::uint64_t positions) {
    return (positions + 3) / 4;
}
constexpr int value_shift_of(std::uint64_t i) {
    return static_cast<int>(2 * (i % 4));
}
inline Value value_at(const std::uint8_t* values, std::uint64_t i) {
    return static_cast<Value>((values[i / 4] >> value_shift_of(i)) & 3);
}
// Sets position i's value in an array whose bits for it are still zero.
inline void put_value(std::uint8_t* values, std::uint64_t i, Value v) {
    values[i / 4] =
        static_cast<std::uint8_t>(values[i / 4] | (static_cast<unsigned>(v) << value_shift_of(i)));
}
// Overwrites position i's value.
inline void set_value(std::uint8_t* values, std::uint64_t i, Value v) {
    const int shift = value_shift_of(i);
    values[i / 4] = static_cast<std::uint8_t>((values[i / 4] & ~(3u << shift)) |
                                              (static_cast<unsigned>(v) << shift));
}

}  // namespace damas
