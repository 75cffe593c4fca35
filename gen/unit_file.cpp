#include "gen/unit_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "gen/huge_pages.hpp"
#include "table/hash.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

static_assert(std::endian::native == std::endian::little, "unit files are little-endian");

constexpr char magic[8] = {'D', 'A', 'M', 'A', 'S', 'U', 'N', 'I'};
constexpr std::uint32_t version = 1;
constexpr std::size_t header_size = 72, label_size = 32;
constexpr std::size_t io_chunk = std::size_t{1} << 20;

std::string label(const Variant& v, Material pair) {
    return v.name() + " " + pair.name();
}

struct Header {
    unsigned char bytes[header_size] = {};
};

Header make_header(const Variant& v, Material pair, int slice, std::uint64_t positions,
                   std::uint64_t values_hash) {
    Header h;
    std::memcpy(h.bytes, magic, 8);
    const auto put32 = [&](std::size_t at, std::uint32_t x) { std::memcpy(h.bytes + at, &x, 4); };
    const auto put64 = [&](std::size_t at, std::uint64_t x) { std::memcpy(h.bytes + at, &x, 8); };
    put32(8, version);
    put32(12, static_cast<std::uint32_t>(slice));
    put64(16, positions);
    const std::string name = label(v, pair);
    std::memcpy(h.bytes + 24, name.data(), std::min(name.size(), label_size));
    put64(56, values_hash);
    put64(64, xxh64(std::as_bytes(std::span(h.bytes, 64))));
    return h;
}

std::span<const std::byte> bytes_of(const SliceValues& values, int part) {
    return part == 0 ? std::as_bytes(std::span(values.outcomes))
                     : std::as_bytes(std::span(values.capture));
}

std::uint64_t hash_values(const SliceValues& values) {
    Xxh64Stream hash;
    hash.update(bytes_of(values, 0));
    hash.update(bytes_of(values, 1));
    return hash.digest();
}

class Fd {
  public:
    Fd(const std::filesystem::path& path, int flags) : path_(path) {
        fd_ = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    }
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }

    void write_all(const void* data, std::size_t n) {
        const char* p = static_cast<const char*>(data);
        while (n > 0) {
            const ssize_t w = ::write(fd_, p, n);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) fail("cannot write");
            p += w;
            n -= static_cast<std::size_t>(w);
        }
    }
    // Reads up to n bytes; fewer only at the end of the file.
    std::size_t read_some(void* data, std::size_t n) {
        char* p = static_cast<char*>(data);
        std::size_t got = 0;
        while (got < n) {
            const ssize_t r = ::read(fd_, p + got, n - got);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) fail("cannot read");
            if (r == 0) break;
            got += static_cast<std::size_t>(r);
        }
        return got;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(path_.string() + ": " + what + ": " + std::strerror(errno));
    }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
};

struct CctxFree {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DctxFree {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

}  // namespace

std::filesystem::path units_dir(const std::filesystem::path& dir, const Variant& v) {
    return dir / v.name() / "units";
}

std::filesystem::path unit_path(const std::filesystem::path& dir, const Variant& v, Material pair,
                                int slice) {
    return units_dir(dir, v) / (pair.name() + "." + std::to_string(slice) + ".unit");
}

void write_unit(const std::filesystem::path& path, const Variant& v, Material pair,
                const SliceValues& values) {
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    {
        Fd out(tmp, O_WRONLY | O_CREAT | O_TRUNC);
        if (!out) out.fail("cannot create");
        const Header h =
            make_header(v, pair, values.slice, values.outcomes.size(), hash_values(values));
        out.write_all(h.bytes, header_size);
        std::unique_ptr<ZSTD_CCtx, CctxFree> cctx(ZSTD_createCCtx());
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, 1);
        ZSTD_CCtx_setPledgedSrcSize(cctx.get(), values.outcomes.size() * 3);
        std::vector<char> buffer(ZSTD_CStreamOutSize());
        for (int part = 0; part < 2; ++part) {
            const std::span<const std::byte> data = bytes_of(values, part);
            ZSTD_inBuffer in{data.data(), data.size(), 0};
            const ZSTD_EndDirective mode = part == 1 ? ZSTD_e_end : ZSTD_e_continue;
            for (bool done = false; !done;) {
                ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
                const std::size_t left = ZSTD_compressStream2(cctx.get(), &o, &in, mode);
                if (ZSTD_isError(left))
                    throw Error(tmp.string() + ": zstd: " + ZSTD_getErrorName(left));
                out.write_all(buffer.data(), o.pos);
                done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
            }
        }
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        throw Error(path.string() + ": cannot rename: " + std::strerror(errno));
}

std::optional<SliceValues> read_unit(const std::filesystem::path& path, const Variant& v,
                                     Material pair, int slice, std::uint64_t positions) {
    Fd in(path, O_RDONLY);
    if (!in) return std::nullopt;
    Header h;
    if (in.read_some(h.bytes, header_size) != header_size) return std::nullopt;
    SliceValues values;
    values.slice = slice;
    std::uint64_t values_hash = 0;
    std::memcpy(&values_hash, h.bytes + 56, 8);
    const Header expected = make_header(v, pair, slice, positions, values_hash);
    if (std::memcmp(expected.bytes, h.bytes, header_size) != 0) return std::nullopt;
    values.outcomes = huge_vector<std::uint16_t>(positions);
    values.capture.assign(positions, 0);
    std::unique_ptr<ZSTD_DCtx, DctxFree> dctx(ZSTD_createDCtx());
    std::vector<char> buffer(ZSTD_DStreamInSize());
    ZSTD_inBuffer zin{buffer.data(), 0, 0};
    std::size_t last = 1;
    for (int part = 0; part < 2; ++part) {
        const std::span<const std::byte> target = bytes_of(values, part);
        ZSTD_outBuffer out{const_cast<std::byte*>(target.data()), target.size(), 0};
        while (out.pos < out.size) {
            if (zin.pos == zin.size) {
                zin.size = in.read_some(buffer.data(), buffer.size());
                zin.pos = 0;
                if (zin.size == 0) return std::nullopt;  // truncated
            }
            last = ZSTD_decompressStream(dctx.get(), &out, &zin);
            if (ZSTD_isError(last)) return std::nullopt;
        }
    }
    if (last != 0 || hash_values(values) != values_hash) return std::nullopt;
    return values;
}

}  // namespace damas
