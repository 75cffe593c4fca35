// Compiled as C++17 with only probe/ on the include path (damas_public_header_cpp17 in
// CMakeLists.txt): the installed C++ header must need neither C++20 nor an internal header.
#include "damas.hpp"

int damas_public_header_cpp17_check(const damas::api::Tablebase& tb) {
    const damas::api::Position p =
        damas::api::parse_fen(damas::api::Variant::english, "W:WK1:BK32");
    std::vector<damas::api::RootMove> moves;
    return static_cast<int>(tb.probe_root(damas::api::Variant::english, p, moves));
}
