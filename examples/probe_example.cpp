// probe_example_cpp: probes one position through the installed C++17 API of the damas prober
// (damas.hpp, over the C API).
//
//   probe_example_cpp DB_DIR [VARIANT FEN]
//
// Without VARIANT and FEN: english, W:WK18,K19:BK1. Prints the value for the side to move and,
// for a win or a loss, the plies to the end of the game with best play ("win 21", "draw"), as
// `damas probe` does, then the best move with its value and DTW for the side that plays it
// ("best 19-15 win 21"; none when the game is over); or an error line on stderr and exits 2.
//
// Build against an installed library:
//   c++ -std=c++17 probe_example.cpp $(pkg-config --cflags --libs damas-probe) -o probe_example
#include <damas.hpp>
#include <iostream>
#include <string>
#include <vector>

namespace api = damas::api;

int main(int argc, char** argv) {
    if (argc != 2 && argc != 4) {
        std::cerr << "usage: " << argv[0] << " DB_DIR [VARIANT FEN]\n";
        return 2;
    }
    try {
        const std::string name = argc == 4 ? argv[2] : "english";
        const auto variant = api::variant_from_name(name);
        if (!variant) throw api::Error("unknown variant '" + name + "'");
        const api::Position p = api::parse_fen(*variant, argc == 4 ? argv[3] : "W:WK18,K19:BK1");
        const api::Tablebase tb(argv[1], 16);
        const api::Result r = tb.probe_dtw(*variant, p);
        if (!r.ok()) throw api::Error(api::status_name(r.status));
        std::cout << api::value_name(r.value);
        if (r.value != api::Value::draw) std::cout << ' ' << r.plies;
        std::cout << '\n';
        std::vector<api::RootMove> moves;
        if (const api::Status s = tb.probe_root(*variant, p, moves); s != api::Status::ok)
            throw api::Error(api::status_name(s));
        if (!moves.empty()) {
            const api::RootMove& best = moves.front();
            std::cout << "best " << best.notation << ' ' << api::value_name(best.value);
            if (best.value != api::Value::draw) std::cout << ' ' << best.plies;
            std::cout << '\n';
        }
    } catch (const std::exception& e) {
        std::cerr << "probe_example_cpp: " << e.what() << '\n';
        return 2;
    }
    return 0;
}
