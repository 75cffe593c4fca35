// libFuzzer target for the table-file reader (table/table_file.hpp): the input is written to a
// file and opened as a table; when it opens, values are read through a small cache and straight
// from the blocks, every value is read if the table is small, and the checksums are verified.
// damas::Error (from the constructor, read_all, verify) and a ReadStatus other than ok are the
// expected answers to a damaged file; any other exception, a crash, a hang or a sanitizer report
// is a bug.
//
// The first input byte is a mode. Bit 0 set: before the file is opened, the checksums the
// mutation broke are computed again (the offset table's, the context model's and the header's),
// so the mutations of the header fields, offsets, block hashes and model reach the code behind
// the checksums instead of stopping at them. The seed corpus (tests/data/table_corpus) holds
// small real files of every codec (zstd, zstd-planes, context, context-mix, mtc-context) and
// metric, each with both modes.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "rules/error.hpp"
#include "table/block_cache.hpp"
#include "table/bytes.hpp"
#include "table/format.hpp"
#include "table/hash.hpp"
#include "table/table_file.hpp"

namespace {

// Header field offsets (table/format.cpp).
constexpr std::size_t o_blocks = 40, o_table_offset = 80, o_table_checksum = 104,
                      o_model_size = 220, o_model_checksum = 224, o_header_checksum = 248;

std::uint64_t load64(const std::vector<std::byte>& b, std::size_t at) {
    return damas::le::load<std::uint64_t>(b.data() + at);
}

// The checksum of bytes [from, from + size) stored at `at`, when those bytes are in the file.
void fix_checksum(std::vector<std::byte>& b, std::uint64_t from, std::uint64_t size,
                  std::size_t at) {
    if (from > b.size() || size > b.size() - from) return;
    const std::uint64_t sum = damas::xxh64(std::span(b).subspan(from, size));
    damas::le::store<std::uint64_t>(b.data() + at, sum);
}

void fix_checksums(std::vector<std::byte>& b) {
    if (b.size() < damas::format::header_size) return;
    const std::uint64_t blocks = load64(b, o_blocks);
    const std::uint64_t table = load64(b, o_table_offset);
    if (blocks < (std::uint64_t{1} << 40)) {
        const std::uint64_t table_size = damas::format::table_bytes(blocks);
        fix_checksum(b, table, table_size, o_table_checksum);
        const std::uint32_t model_size = damas::le::load<std::uint32_t>(b.data() + o_model_size);
        if (table <= ~std::uint64_t{0} - table_size)
            fix_checksum(b, table + table_size, model_size, o_model_checksum);
    }
    fix_checksum(b, 0, o_header_checksum, o_header_checksum);
}

const std::string& scratch_path() {
    static const std::string path = "/tmp/fuzz_table_" + std::to_string(::getpid()) + ".wdl";
    return path;
}

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_table: %s\n", what);
    std::abort();
}

void check_read(damas::ReadResult r) {
    if (r.ok() || r.status == damas::ReadStatus::corrupt_block ||
        r.status == damas::ReadStatus::io_error || r.status == damas::ReadStatus::out_of_range ||
        r.status == damas::ReadStatus::not_in_cache)
        return;
    fail("a read gave no known status");
}

void exercise(const damas::TableFile& file) {
    // A few values only, and none again from a block that failed: such a block is not cached, so
    // every read would decode it again (a context-coded block takes milliseconds under the
    // sanitizers), which is where the fuzzer's time went, for no new path.
    static damas::BlockCache cache(256 * 1024);
    const std::uint64_t n = file.size();
    if (n == 0) return;
    const std::uint64_t step = n / 13 + 1;
    const std::uint64_t per_block = std::max<std::uint64_t>(file.header().positions_per_block, 1);
    std::uint64_t failed_block = ~std::uint64_t{0};
    for (std::uint64_t i = 0; i < n; i += step) {
        if (i / per_block == failed_block) continue;
        const damas::ReadResult r = file.value(i, cache);
        check_read(r);
        if (r.status == damas::ReadStatus::corrupt_block) failed_block = i / per_block;
        check_read(file.try_value(i, cache));
    }
    check_read(file.value(n, cache));  // out of range
    if (file.header().blocks > 0) {
        std::vector<std::byte> block(file.block_size(0));
        (void)file.read_block(0, block);
    }
    // Every value of a small table only (the seeds are: a header naming a larger class made
    // each input decode up to a million positions' contexts).
    if (n <= (std::uint64_t{1} << 15) && file.holds_values()) {
        try {
            if (file.header().metric == damas::Metric::wdl) {
                std::vector<std::uint8_t> all(n);
                file.read_all(all);
            } else {
                std::vector<std::uint16_t> all(n);
                file.read_all(all);
            }
        } catch (const damas::Error&) {
        }
    }
    try {
        file.verify();
    } catch (const damas::Error&) {
    }
    cache.clear();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::vector<std::byte> bytes(size - 1);
    if (size > 1) std::memcpy(bytes.data(), data + 1, size - 1);
    if (data[0] & 1) fix_checksums(bytes);
    {
        std::ofstream out(scratch_path(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) fail("cannot write the scratch file");
    }
    try {
        const damas::TableFile file(scratch_path());
        exercise(file);
    } catch (const damas::Error&) {
    }
    std::remove(scratch_path().c_str());  // libFuzzer may end the process without exit()
    return 0;
}
