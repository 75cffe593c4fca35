// xxh64 (seed 0) for the table files, one-shot and streaming. The xxHash library is compiled
// header-only into hash.cpp, so nothing else needs its headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace damas {

std::uint64_t xxh64(std::span<const std::byte> data);

class Xxh64Stream {
  public:
    Xxh64Stream();
    ~Xxh64Stream();
    Xxh64Stream(const Xxh64Stream&) = delete;
    Xxh64Stream& operator=(const Xxh64Stream&) = delete;

    void update(std::span<const std::byte> data);
    std::uint64_t digest() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace damas
