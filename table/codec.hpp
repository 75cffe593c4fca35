// The block codecs of table files (format.hpp's codec byte) behind one seam.
//
// Owns: the registry of codecs by the header's codec byte, and the interface every codec gives:
// the header fields it accepts, its positions per block, its per-file model (built by the writer
// from the file's values, stored after the offset table, parsed by the reader), the encoding of
// one block of values (with the decoded bytes it stands for, whose hash the offset table keeps)
// and the decoding of one block. The writer (gen/write/writer) and the reader (table/table_file)
// call codecs only through here, and the header's parser asks the registry whether a codec byte is
// known, so a new codec is an enumerator of Codec, its implementation and a line in the registry
// (codec.cpp); tests/table/test_codec.cpp runs over every registered codec.
//
// Codecs: zstd (table/codecs/zstd_codec.cpp; every metric; no model; unknown positions filled with
// a value that compresses well, FillRule), zstd-planes (the same for the 16-bit metrics, a block's
// low and high bytes apart: the generator's dtw and dtr files) and the context codecs
// (table/codecs/context_codec.cpp over table/codecs/wdl_context.hpp, "context", and
// table/codecs/wdl_mix.hpp, "context-mix"; stored wdl tables only; a model of probabilities;
// positions the probe never reads are not coded and decode as 3; they alone can skip a class's odd
// half, format.hpp's half layout) and mtc-context (table/codecs/mtc_codec.cpp over
// table/codecs/mtc_context.hpp; mtc tables only; no model: adaptive contexts in each block;
// positions the probe never reads are not coded and decode as dtw_unknown) and mtc-wdl (the same
// coding given the class's wdl values: the one codec that reads another file, reads_wdl).
//
// Estimates are an encoding of a sample of blocks: the model built from the sampled blocks, the
// same blocks encoded (gen/write/writer.hpp's estimate_wdl_bytes drives it, on the writer's
// threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "table/format.hpp"

namespace damas {

// How the zstd codec replaces unknown positions before compression. Measured on synthetic 2+2
// data with 46% unknowns (bench_probe_file): wdl 0.235 bits per position with `previous` against
// 0.359 with `block_majority`; dtw 1.12 against 0.99 bits. `automatic` takes the better one per
// metric.
enum class FillRule : std::uint8_t {
    automatic,       // previous for wdl, block_majority for dtw
    previous,        // the previous known value in index order (the block's first known for
                     // leading unknowns)
    block_majority,  // the most frequent known value of the block
};

// Reads the wdl values (0..3, wdl_unknown where the file does not tell) of a class's positions
// [first, first + out.size()) from its wdl file, for a codec that codes distances given them
// (BlockCodec::reads_wdl). Throws Error if they cannot be read.
using WdlReader = std::function<void(std::uint64_t first, std::span<std::uint8_t> out)>;

// What a writer may ask of an encoder beyond a codec's defaults; each codec reads the settings
// that apply to it (the context codec none).
struct EncodeSettings {
    FillRule fill = FillRule::automatic;
    int zstd_level = 0;  // 0: the format's default for the metric (with its cheaper dtw search)
    WdlReader wdl;       // a codec that reads_wdl: the class's wdl file the readers will read
    // Instead of wdl: that file tells the value of every position that need not capture, so it
    // is the value the distance gives there (mtc-wdl).
    bool wdl_of_values = false;
};

// One thread's encoder of one file's blocks (not thread-safe: one per thread).
class BlockEncoder {
  public:
    virtual ~BlockEncoder() = default;
    // The block of positions [first, first + values.size()) (wdl: 0..3, 3 unknown; dtw and dtr:
    // u16): `plain` gets the decoded bytes (format.hpp) that decoding `coded` gives back, `coded`
    // the block's bytes in the file. Throws Error on a value the codec cannot code, or wdl
    // values given to a codec of 16-bit values and the other way round.
    virtual void encode(std::uint64_t first, std::span<const std::uint8_t> values,
                        std::vector<std::byte>& plain, std::vector<std::byte>& coded) = 0;
    virtual void encode(std::uint64_t first, std::span<const std::uint16_t> values,
                        std::vector<std::byte>& plain, std::vector<std::byte>& coded) = 0;
};

// One file's codec, its model included. Const members may be called from any thread at once.
class TableCodec {
  public:
    virtual ~TableCodec() = default;
    // The model's bytes, stored after the offset table (empty: the codec has no model).
    virtual std::span<const std::byte> model() const = 0;
    // The most bytes a block of n positions may take in the file (a reader rejects an offset
    // table that says more).
    virtual std::size_t max_encoded_bytes(std::uint64_t n) const = 0;
    // Decodes the block of positions [first, first + n) into out (its decoded bytes, format.hpp:
    // out.size() is block_bytes(metric, n)). False if `in` is corrupt: never reads past it.
    virtual bool decode(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                        std::span<std::byte> out) const = 0;
    // The same for a codec that reads_wdl, given `wdl`, the n positions' values in the class's
    // wdl file (WdlReader's); decode() then answers false.
    virtual bool decode_given_wdl(std::uint64_t first, std::uint64_t n,
                                  std::span<const std::byte> in, std::span<const std::uint8_t> wdl,
                                  std::span<std::byte> out) const {
        (void)wdl;
        return decode(first, n, in, out);
    }
    // An encoder for one thread.
    virtual std::unique_ptr<BlockEncoder> encoder(const EncodeSettings& settings) const = 0;
};

// What the model's pass keeps of what it computed per position (the context codec's flags, a
// byte each) for the encoders of the same blocks, which otherwise compute it again (about 30 ns
// a position): nothing, the bytes, or the bytes compressed (zstd level 1: a tenth of a byte a
// position on english 2-6, 3 ns a position to compress and read back), for writers bounded by
// memory.
enum class HeldFlags { none, plain, compressed };

// Which blocks a model is built from, on how many threads.
struct ModelSampling {
    unsigned workers = 1;      // add()'s worker is below this
    std::uint32_t stride = 1;  // blocks 0, stride, 2 stride, ...
    HeldFlags hold = HeldFlags::plain;
    // Compressed: the most bytes held; the blocks beyond it are computed again.
    std::uint64_t hold_limit = UINT64_MAX;
};

// Builds one file's model from its values: add() the sampled blocks (any order, from the
// workers at once, one call per worker at a time), then finish().
class ModelBuilder {
  public:
    virtual ~ModelBuilder() = default;
    // False for a codec without a model: finish() needs no values.
    virtual bool needs_values() const = 0;
    // Block `block`'s values (wdl: 0..3).
    virtual void add(std::size_t worker, std::uint64_t block,
                     std::span<const std::uint8_t> values) = 0;
    // The file's codec; nothing if this codec cannot code the values (the context codec: a
    // position the probe reads has no value, where a rule ended the game).
    virtual std::unique_ptr<const TableCodec> finish() = 0;
};

// A codec as the registry holds it.
class BlockCodec {
  public:
    virtual ~BlockCodec() = default;
    virtual Codec id() const = 0;
    virtual const char* name() const = 0;  // "zstd", "context": the CLI's names
    // Whether it codes tables of metric m (stored layout).
    virtual bool codes(Metric m) const = 0;
    // Why a header with this codec is not valid (metric, layout, half, model size), or empty.
    virtual std::string header_problem(const TableHeader& h) const = 0;
    // Whether it can store a class in the half layout (format.hpp).
    virtual bool codes_half() const = 0;
    // Whether its blocks code values given the class's wdl values (mtc-wdl): the reader decodes
    // them with the class's wdl file (TableCodec::decode_given_wdl), the writer's encoders read it
    // (EncodeSettings::wdl).
    virtual bool reads_wdl() const { return false; }
    // The positions per block of its files of metric m (`asked`: the writer's wish, 0: none).
    virtual std::uint32_t positions_per_block(Metric m, std::uint32_t asked) const = 0;
    // Reading: the codec of the file of header h whose model bytes are `model`. Throws Error,
    // prefixed by `what`, if they are not a valid model for h.
    virtual std::unique_ptr<const TableCodec> open(const TableHeader& h,
                                                   std::span<const std::byte> model,
                                                   const std::string& what) const = 0;
    // Writing: a builder of the model of the file of header h (counts aside, complete but for
    // the offsets, the checksums and the model's size).
    virtual std::unique_ptr<ModelBuilder> model_builder(const TableHeader& h,
                                                        const ModelSampling& sampling) const = 0;
};

// Every registered codec, by codec byte.
std::span<const BlockCodec* const> block_codecs();
// The codec of a header's codec byte, or null if none has it.
const BlockCodec* find_block_codec(std::uint8_t byte);
// The codec named so ("zstd", "context"), or null.
const BlockCodec* find_block_codec(std::string_view name);
// The codec c; throws Error naming the byte if none is registered for it.
const BlockCodec& block_codec(Codec c);

// The implementations, for the registry (codec.cpp).
const BlockCodec& zstd_block_codec();         // table/codecs/zstd_codec.cpp
const BlockCodec& zstd_planes_block_codec();  // table/codecs/zstd_codec.cpp
const BlockCodec& context_block_codec();      // table/codecs/context_codec.cpp
const BlockCodec& context_mix_block_codec();  // table/codecs/context_codec.cpp
const BlockCodec& mtc_context_block_codec();  // table/codecs/mtc_codec.cpp
const BlockCodec& mtc_wdl_block_codec();      // table/codecs/mtc_codec.cpp

}  // namespace damas
