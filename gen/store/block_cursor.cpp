#include "gen/store/block_cursor.hpp"

#include <string>

#include "rules/error.hpp"
#include "table/bytes.hpp"

namespace damas {

std::uint64_t BlockCursor::hold(std::uint64_t at) {
    const std::uint64_t block = at / positions_per_block_;
    if (block != block_) {
        block_ = UINT64_MAX;  // until the block is read whole: a failed read leaves none held
        bytes_.resize(file_.block_size(block));
        if (const ReadStatus st = file_.read_block(block, bytes_); st != ReadStatus::ok)
            throw Error(file_.path().string() + ": block " + std::to_string(block) + ": " +
                        read_status_name(st));
        block_ = block;
    }
    return at % positions_per_block_;
}

std::uint8_t BlockCursor::wdl_at(std::uint64_t at) {
    const std::uint64_t within = hold(at);
    return static_cast<std::uint8_t>(
        (static_cast<unsigned>(bytes_[within / 4]) >> (2 * (within % 4))) & 3u);
}

std::uint16_t BlockCursor::u16_at(std::uint64_t at) {
    const std::uint64_t within = hold(at);
    return le::load<std::uint16_t>(&bytes_[2 * within]);
}

}  // namespace damas
