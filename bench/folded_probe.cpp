// folded_probe: the time of probe_distance on quiet positions whose MTC file folds the distance
// (table/mtc_fold.hpp: a bounded search tells 1 to the fold apart), their blocks cached, and
// the slowest such probes found (a measuring tool, not a benchmark).
//
//   build/bench/folded_probe DIR VARIANT [PIECES [SAMPLES]]
//
// Samples SAMPLES (default 20000) random quiet positions of each class of PIECES (default 5)
// pieces with both sides (half of them Black to move), probes each once to load its blocks into
// a 1 GiB cache, then times a second probe (CPU time). Prints the mean over the positions whose
// distance is 1 to the folder's fold (1 to 8 in a fold-0 folder: those positions unfolded) and, of
// the 5 slowest, each timed again 3 times (the least kept), the slowest; on stderr, each class's
// count, mean and slowest.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

struct Timed {
    Position position;
    ProbeResult result;
    double ns = 0;
};

// The probe's CPU time (this thread's: the figure holds on a loaded machine).
double thread_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double probe_ns(const Tablebase& tb, Variant v, const Position& p, ProbeResult& out) {
    const double start = thread_ns();
    out = tb.probe_distance(v, p);
    return thread_ns() - start;
}

// The fold of the folder's mtc files (the first found; a folder is generated with one).
int folder_fold(const std::filesystem::path& dir, Variant v, int pieces) {
    for (const Material m : classes_with_pieces(pieces)) {
        const auto path = table_path(dir, v, m.name(), Metric::mtc);
        if (!std::filesystem::exists(path)) continue;
        const TableFile file(path, {v, m, Metric::mtc});
        if (file.holds_values()) return file.header().mtc_fold;  // not a mirror-layout header
    }
    return 0;
}

template <class R>
int run(const std::filesystem::path& dir, Variant v, int pieces, int samples) {
    const auto tb = Tablebase::open(dir, 1024);
    const int fold = folder_fold(dir, v, pieces);
    // Where a fold-0 folder is measured, the positions a fold of 8 would fold.
    const int folded_up_to = fold ? fold : 8;
    std::mt19937_64 rng(5);
    std::vector<Timed> timed;
    std::uint64_t probes = 0, failures = 0;
    for (const Material m : classes_with_pieces(pieces)) {
        if (!m.white() || !m.black()) continue;
        if (!std::filesystem::exists(table_path(dir, v, m.name(), Metric::mtc))) continue;
        const ClassIndex index(v.info().board, m);
        const std::size_t before = timed.size();
        double class_ns = 0, class_max = 0;
        for (int s = 0; s < samples; ++s) {
            Position p = index.unindex(rng() % index.size());
            if (rng() % 2) p = flip(v.info().board, p);
            if (MoveGenerator<R>::has_capture(p)) continue;
            ProbeResult r;
            probe_ns(*tb, v, p, r);  // its blocks into the cache
            const double ns = probe_ns(*tb, v, p, r);
            ++probes;
            if (!r.ok()) {
                ++failures;
                continue;
            }
            if (r.metric != Metric::mtc || r.value == Value::draw || r.plies < 1 ||
                r.plies > folded_up_to)
                continue;
            timed.push_back({p, r, ns});
            class_ns += ns;
            class_max = std::max(class_max, ns);
        }
        const std::size_t n = timed.size() - before;
        std::fprintf(stderr, "%s: %zu folded, mean %.0f ns, slowest %.0f ns\n", m.name().c_str(), n,
                     n ? class_ns / static_cast<double>(n) : 0.0, class_max);
    }
    double sum = 0;
    for (const Timed& t : timed) sum += t.ns;
    const std::size_t folded = timed.size();
    std::sort(timed.begin(), timed.end(),
              [](const Timed& a, const Timed& b) { return a.ns > b.ns; });
    timed.resize(std::min<std::size_t>(timed.size(), 5));
    for (Timed& t : timed) {
        double least = t.ns;
        for (int i = 0; i < 3; ++i) {
            ProbeResult r;
            least = std::min(least, probe_ns(*tb, v, t.position, r));
        }
        t.ns = least;
    }
    std::sort(timed.begin(), timed.end(),
              [](const Timed& a, const Timed& b) { return a.ns > b.ns; });
    std::printf(
        "%s %d pieces, fold %d: %llu quiet positions probed (%llu failed), mean %.0f ns over "
        "the %zu with MTC 1 to %d\n",
        v.name().c_str(), pieces, fold, static_cast<unsigned long long>(probes),
        static_cast<unsigned long long>(failures), folded ? sum / static_cast<double>(folded) : 0.0,
        folded, folded_up_to);
    for (std::size_t i = 0; i < std::min<std::size_t>(timed.size(), 5); ++i)
        std::printf("  %.0f ns  MTC %d %s  %s\n", timed[i].ns, timed[i].result.plies,
                    timed[i].result.value == Value::win ? "win" : "loss",
                    to_fen(v, timed[i].position).c_str());
    return failures ? 1 : 0;
}

}  // namespace
}  // namespace damas

int main(int argc, char** argv) {
    using namespace damas;
    if (argc < 3) {
        std::fprintf(stderr, "usage: folded_probe DIR VARIANT [PIECES [SAMPLES]]\n");
        return 2;
    }
    const std::optional<Variant> v = parse_variant(argv[2]);
    if (!v) {
        std::fprintf(stderr, "unknown variant %s\n", argv[2]);
        return 2;
    }
    const int pieces = argc > 3 ? std::atoi(argv[3]) : 5;
    const int samples = argc > 4 ? std::atoi(argv[4]) : 20000;
    return dispatch(v->base,
                    [&](auto rules) { return run<decltype(rules)>(argv[1], *v, pieces, samples); });
}
