#include "table/hash.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace damas {

std::uint64_t xxh64(std::span<const std::byte> data) {
    return XXH64(data.data(), data.size(), 0);
}

struct Xxh64Stream::State {
    XXH64_state_t s;
};

Xxh64Stream::Xxh64Stream() : state_(std::make_unique<State>()) {
    XXH64_reset(&state_->s, 0);
}
Xxh64Stream::~Xxh64Stream() = default;

void Xxh64Stream::update(std::span<const std::byte> data) {
    XXH64_update(&state_->s, data.data(), data.size());
}

std::uint64_t Xxh64Stream::digest() const {
    return XXH64_digest(&state_->s);
}

}  // namespace damas
