// libFuzzer target for the FEN parser: the input is parsed as a FEN of every variant. A parse
// that succeeds must print a FEN that parses back to the same position and prints the same
// again. damas::Error is the expected answer to bad input; any other exception, a crash or a
// sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rules/error.hpp"
#include "rules/notation.hpp"

namespace {

[[noreturn]] void fail(const damas::Variant& v, std::string_view what, const std::string& fen) {
    std::fprintf(stderr, "fuzz_fen: %s: %.*s (%s)\n", v.name().c_str(),
                 static_cast<int>(what.size()), what.data(), fen.c_str());
    std::abort();
}

void check_round_trip(const damas::Variant& v, std::string_view input) {
    damas::Position p;
    try {
        p = damas::parse_fen(v, input);
    } catch (const damas::Error&) {
        return;
    }
    const std::string printed = damas::to_fen(v, p);
    damas::Position again;
    try {
        again = damas::parse_fen(v, printed);
    } catch (const damas::Error& e) {
        fail(v, std::string("printed FEN does not parse: ") + e.what(), printed);
    }
    if (!(again == p)) fail(v, "printed FEN parses to another position", printed);
    if (damas::to_fen(v, again) != printed) fail(v, "printing is not stable", printed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    for (const damas::Variant& v : damas::all_variants()) {
        check_round_trip(v, input);
        (void)damas::parse_square(v.info(), input);
    }
    return 0;
}
