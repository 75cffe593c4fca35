#include "gen/write/wdl_choice.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "gen/write/table_writing.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

constexpr char choice_magic[8] = {'D', 'A', 'M', 'A', 'S', 'W', 'C', 'H'};
constexpr std::uint32_t choice_version = 1;
constexpr std::size_t class_bytes = 64;  // a class's fields before its model

void put(std::vector<std::byte>& b, std::uint64_t v, std::size_t bytes) {
    const std::size_t at = b.size();
    b.resize(at + bytes);
    for (std::size_t i = 0; i < bytes; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}

std::array<std::uint8_t, 4> material_bytes(Material m) {
    return {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
            static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)};
}

std::vector<std::byte> encode_choice(const PairWdlChoice& choice) {
    std::vector<std::byte> b(sizeof choice_magic);
    std::memcpy(b.data(), choice_magic, sizeof choice_magic);
    put(b, choice_version, 4);
    put(b, choice.classes.size(), 4);
    for (const WdlFileChoice& c : choice.classes) {
        put(b, c.keeps ? 1 : 0, 1);
        put(b, static_cast<std::uint8_t>(c.coding.codec), 1);
        put(b, c.coding.half ? 1 : 0, 1);
        put(b, 0, 1);
        for (const std::uint8_t x : material_bytes(c.material)) put(b, x, 1);
        for (const std::uint64_t v :
             {c.counts.positions, c.counts.wins, c.counts.draws, c.counts.losses, c.counts.unknown,
              c.estimated_bytes, static_cast<std::uint64_t>(c.model.size())})
            put(b, v, 8);
        b.insert(b.end(), c.model.begin(), c.model.end());
    }
    put(b, xxh64(b), 8);
    return b;
}

}  // namespace

void save_wdl_choice(const std::filesystem::path& path, const PairWdlChoice& choice, bool durable) {
    const std::vector<std::byte> bytes = encode_choice(choice);
    writing::TmpFile file(path);
    file.write_at(0, bytes);
    file.commit(durable);
}

PairWdlChoice load_wdl_choice(const std::filesystem::path& path, std::span<const Material> classes,
                              std::uint64_t positions) {
    const auto fail = [&](const std::string& what) -> Error {
        return Error(path.string() + ": " + what);
    };
    std::ifstream in(path, std::ios::binary);
    if (!in) throw fail("cannot open");
    const std::vector<char> raw((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    std::vector<std::byte> b(raw.size());
    std::memcpy(b.data(), raw.data(), raw.size());
    if (b.size() < 24 || std::memcmp(b.data(), choice_magic, sizeof choice_magic) != 0 ||
        le::load<std::uint32_t>(&b[8]) != choice_version)
        throw fail("not a wdl choice of this version");
    const std::size_t body = b.size() - 8;
    if (le::load<std::uint64_t>(&b[body]) != xxh64(std::span<const std::byte>(b.data(), body)))
        throw fail("damaged");
    if (le::load<std::uint32_t>(&b[12]) != classes.size()) throw fail("of another pair");
    PairWdlChoice choice;
    std::size_t at = 16;
    for (const Material m : classes) {
        if (at + class_bytes > body) throw fail("damaged");
        WdlFileChoice c;
        c.material = m;
        c.keeps = b[at] != std::byte{0};
        c.coding.codec = static_cast<Codec>(b[at + 1]);
        c.coding.half = b[at + 2] != std::byte{0};
        const std::array<std::uint8_t, 4> want = material_bytes(m);
        for (std::size_t i = 0; i < 4; ++i)
            if (static_cast<std::uint8_t>(b[at + 4 + i]) != want[i]) throw fail("of another pair");
        std::uint64_t v[7];
        for (std::size_t i = 0; i < 7; ++i) v[i] = le::load<std::uint64_t>(&b[at + 8 + 8 * i]);
        if (v[0] != positions) throw fail("of another pair");
        c.counts.positions = v[0], c.counts.wins = v[1], c.counts.draws = v[2];
        c.counts.losses = v[3], c.counts.unknown = v[4];
        c.estimated_bytes = v[5];
        at += class_bytes;
        if (v[6] > body - at) throw fail("damaged");
        c.model.assign(b.begin() + static_cast<std::ptrdiff_t>(at),
                       b.begin() + static_cast<std::ptrdiff_t>(at + v[6]));
        at += v[6];
        choice.classes.push_back(std::move(c));
    }
    if (at != body) throw fail("damaged");
    return choice;
}

}  // namespace damas
