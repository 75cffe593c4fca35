// The binary range coder of the context codecs (table/codecs/wdl_context.hpp,
// table/codecs/wdl_mix.hpp): the carry-propagating kind, 32-bit range, 8-bit output, probabilities
// of a 1 in 12 bits (1..4095 out of 4096). A block's bytes are the encoder's output, 5 bytes of
// flush included; the decoder reads zeros past its input and says so (overran), so corrupt input is
// told apart and never read beyond.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace damas::range_coder {

inline constexpr int bits = 12;
inline constexpr std::uint32_t top = 1u << 24;

class Encoder {
  public:
    explicit Encoder(std::vector<std::byte>& out) : out_(out) {}
    void encode(bool bit, std::uint16_t p1) {
        const std::uint32_t bound = (range_ >> bits) * p1;
        if (bit) {
            range_ = bound;
        } else {
            low_ += bound;
            range_ -= bound;
        }
        while (range_ < top) {
            range_ <<= 8;
            shift_low();
        }
    }
    void finish() {
        for (int i = 0; i < 5; ++i) shift_low();
    }

  private:
    void shift_low() {
        if (static_cast<std::uint32_t>(low_) < 0xFF000000u || (low_ >> 32) != 0) {
            const auto carry = static_cast<std::uint8_t>(low_ >> 32);
            std::uint8_t b = cache_;
            do {
                out_.push_back(static_cast<std::byte>(static_cast<std::uint8_t>(b + carry)));
                b = 0xFF;
            } while (--pending_ != 0);
            cache_ = static_cast<std::uint8_t>(low_ >> 24);
        }
        ++pending_;
        low_ = (low_ & 0x00FFFFFFu) << 8;
    }
    std::vector<std::byte>& out_;
    std::uint64_t low_ = 0;
    std::uint32_t range_ = 0xFFFFFFFFu;
    std::uint8_t cache_ = 0;
    std::uint64_t pending_ = 1;
};

class Decoder {
  public:
    explicit Decoder(std::span<const std::byte> in) : in_(in) {
        for (int i = 0; i < 5; ++i) code_ = (code_ << 8) | next();
    }
    bool decode(std::uint16_t p1) {
        const std::uint32_t bound = (range_ >> bits) * p1;
        bool bit;
        if (code_ < bound) {
            range_ = bound;
            bit = true;
        } else {
            code_ -= bound;
            range_ -= bound;
            bit = false;
        }
        while (range_ < top) {
            range_ <<= 8;
            code_ = (code_ << 8) | next();
        }
        return bit;
    }
    // Whether the input ran out before the coder's own flush bytes were read.
    bool overran() const { return overrun_ > 0; }

  private:
    std::uint32_t next() {
        if (pos_ < in_.size()) return static_cast<std::uint32_t>(in_[pos_++]);
        ++overrun_;
        return 0;
    }
    std::span<const std::byte> in_;
    std::size_t pos_ = 0;
    std::size_t overrun_ = 0;
    std::uint32_t code_ = 0;
    std::uint32_t range_ = 0xFFFFFFFFu;
};

}  // namespace damas::range_coder
