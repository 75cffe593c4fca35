#include "gen/plan/work_graph.hpp"

#include <algorithm>
#include <string>

#include "gen/solve/compact/compact_solver.hpp"
#include "gen/write/pair_writer.hpp"
#include "gen/write/table_parts.hpp"
#include "gen/write/wdl_policy.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {

std::vector<int> cut_ranges(const GenerationPlan& plan, int workers, int forced) {
    if (forced < 0) throw Error("the ranges a slice is cut into must not be negative");
    std::vector<int> ranges(plan.pairs.size(), 1);
    double total = 0;
    for (const PairStep& s : plan.pairs) total += s.seconds;
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) {
        const PairStep& s = plan.pairs[i];
        if (!s.in_units) continue;
        if (forced > 0)
            ranges[i] = forced;
        else if (workers > 1 && s.seconds >= cut_share * total / workers)
            ranges[i] = workers;
    }
    return ranges;
}

namespace {

// The ranges of each slice of pair `step` cut into `ranges`: where the slice can be cut, at
// most as many as class 0 has configurations in it; else 1.
std::vector<int> slice_ranges(const GenerateOptions& o, const GenerationPlan& plan,
                              const PairStep& step, int ranges) {
    const ClassIndex index(o.variant.info().board, step.material);
    std::vector<int> out;
    for (int s = 0; s < index.slice_count(); ++s) {
        const bool cuts =
            slice_cuts_into_ranges(o.variant, index, s, plan.threads,
                                   pair_tuning(o, step).unit_chunk_positions, step.compact);
        const std::uint64_t men = index.men_in_slice(s);
        out.push_back(
            cuts ? static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(ranges),
                                                            std::max<std::uint64_t>(men, 1)))
                 : 1);
    }
    return out;
}

}  // namespace

WorkGraph work_graph(const GenerateOptions& o, const GenerationPlan& plan, const PairGraph& pairs,
                     const std::vector<int>& ranges, bool wdl_parts_allowed) {
    if (ranges.size() != plan.pairs.size() || pairs.pairs.size() != plan.pairs.size())
        throw Error("work_graph: one count of ranges a pair");
    WorkGraph w;
    w.ranges_by_slice.resize(plan.pairs.size());
    w.parts_by_class.resize(plan.pairs.size());
    w.wdl_parts.resize(plan.pairs.size());
    std::vector<std::size_t> final_node(plan.pairs.size());  // the node that writes each pair
    PairGraph& g = w.graph;
    const auto add = [&](WorkNode node, std::uint64_t positions, double seconds,
                         std::vector<std::size_t> needs) {
        w.nodes.push_back(node);
        g.pairs.push_back(plan.pairs[node.pair].material);
        g.positions.push_back(positions);
        g.needs.push_back(std::move(needs));
        w.seconds.push_back(seconds);
        return w.nodes.size() - 1;
    };
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) {
        const PairStep& step = plan.pairs[i];
        std::vector<std::size_t> inputs;
        for (const std::size_t n : pairs.needs[i]) inputs.push_back(final_node[n]);
        const std::vector<int> cut =
            ranges[i] > 1 ? slice_ranges(o, plan, step, ranges[i]) : std::vector<int>{};
        if (cut.empty() || std::all_of(cut.begin(), cut.end(), [](int k) { return k == 1; })) {
            final_node[i] = add({WorkNode::Kind::pair, i}, step.positions, step.seconds, inputs);
            continue;
        }
        w.ranges_by_slice[i] = cut;
        ++w.pairs_cut;
        const ClassIndex index(o.variant.info().board, step.material);
        const ClassIndex mirror(o.variant.info().board, step.material.mirrored());
        const bool single = step.material == step.material.mirrored();
        const double work = std::max(0.0, step.seconds - step.load_seconds);
        std::vector<std::size_t> before = inputs;  // what a range of the next slice reads
        for (int s = 0; s < static_cast<int>(cut.size()); ++s) {
            const int k = cut[static_cast<std::size_t>(s)];
            if (k > 1) ++w.slices_cut;
            const std::uint64_t slice =
                index.positions_in_slice(s) + (single ? 0 : mirror.positions_in_slice(s));
            const double share = static_cast<double>(slice) / static_cast<double>(step.positions);
            const double seconds =
                work * (1 - write_share) * share / k + (s == 0 ? step.inputs_load_seconds : 0);
            std::vector<std::size_t> slice_nodes;
            for (int r = 0; r < k; ++r)
                slice_nodes.push_back(add({WorkNode::Kind::range, i, s, r, k},
                                          slice / static_cast<std::uint64_t>(k), seconds, before));
            before = std::move(slice_nodes);
        }
        // The writing: the wdl files, the distance files' parts, their assembly.
        const double writing = work * write_share;
        const std::uint64_t written = step.positions / 4;
        const auto share = [](std::uint64_t n, double s) {
            return static_cast<std::uint64_t>(static_cast<double>(n) * s);
        };
        std::size_t wdl = 0;  // the node that writes the wdl files
        const int wdl_files = wdl_parts_allowed ? wdl_files_in_parts(o, step.material) : 0;
        const double wdl_writing = writing * write_wdl_share;
        const std::uint64_t wdl_written = share(written, write_wdl_share);
        if (wdl_files == 0) {
            wdl = add({WorkNode::Kind::write_wdl, i}, wdl_written, wdl_writing, before);
        } else {
            // Each class's estimate, the choice, each file's parts, their assembly.
            const int classes = single ? 1 : 2;
            std::vector<std::size_t> estimates;
            for (int c = 0; c < classes; ++c) {
                WorkNode node{WorkNode::Kind::wdl_estimate, i};
                node.cls = c;
                estimates.push_back(add(node, share(wdl_written, wdl_estimate_share),
                                        wdl_writing * wdl_estimate_share, before));
            }
            const std::size_t choice =
                add({WorkNode::Kind::wdl_choice, i}, share(wdl_written, wdl_choice_share),
                    wdl_writing * wdl_choice_share, estimates);
            const int k = wdl_parts(index.size(), ranges[i]);
            const double part_share = wdl_parts_share / wdl_files / k;
            std::vector<std::size_t> wdl_part_nodes;
            for (int f = 0; f < wdl_files; ++f) {
                w.wdl_parts[i].push_back(k);
                for (int r = 0; r < k; ++r) {
                    WorkNode node{WorkNode::Kind::wdl_part, i, -1, r, k};
                    node.cls = f;
                    wdl_part_nodes.push_back(add(node, share(wdl_written, part_share),
                                                 wdl_writing * part_share, {choice}));
                }
            }
            wdl = add({WorkNode::Kind::wdl_write, i}, share(wdl_written, wdl_assemble_share),
                      wdl_writing * wdl_assemble_share, wdl_part_nodes);
        }
        // An mtc file in the mirror layout has no values, so the parts of one class of such a
        // pair write nothing; which class, the wdl files decide: half the parts' time, spread
        // over both.
        const bool mirror_mtc = !single && distance_metric(o, step.material) == Metric::mtc &&
                                o.mirror_mtc && mirror_layout_allowed(o, step.material);
        const double parts_share =
            (1 - write_wdl_share - write_assemble_share) * (mirror_mtc ? 0.5 : 1.0);
        const int classes = single ? 1 : 2;
        std::vector<std::size_t> parts;
        for (int c = 0; c < classes; ++c) {
            const std::uint64_t positions = (c == 0 ? index : mirror).size();
            const int k = static_cast<int>(
                std::min<std::uint64_t>(distance_table_blocks(distance_metric(o, step.material),
                                                              positions, write_options(o)),
                                        static_cast<std::uint64_t>(ranges[i])));
            w.parts_by_class[i].push_back(k);
            for (int r = 0; r < k; ++r) {
                WorkNode node{WorkNode::Kind::write_part, i, -1, r, k};
                node.cls = c;
                parts.push_back(add(node, share(written, parts_share / classes / k),
                                    writing * parts_share / classes / k, {wdl}));
            }
        }
        final_node[i] = add({WorkNode::Kind::write, i}, share(written, write_assemble_share),
                            writing * write_assemble_share, parts);
    }
    set_heaviest_chains(g, w.seconds);
    return w;
}

WorkGraph faster_work_graph(const GenerateOptions& o, const GenerationPlan& plan,
                            const PairGraph& pairs, const std::vector<int>& ranges, int workers) {
    WorkGraph parts = work_graph(o, plan, pairs, ranges, true);
    WorkGraph whole = work_graph(o, plan, pairs, ranges, false);
    const double with = estimate_schedule(parts.graph, parts.seconds, workers).seconds;
    const double without = estimate_schedule(whole.graph, whole.seconds, workers).seconds;
    return with < without ? std::move(parts) : std::move(whole);
}

HeaviestChain heaviest_chain(const WorkGraph& w) {
    const std::size_t n = w.nodes.size();
    // From each node on, the heaviest chain's seconds and its next node (backwards: a node reads
    // earlier ones only).
    std::vector<double> from(n, 0);
    std::vector<std::size_t> next(n, n);
    for (std::size_t i = n; i-- > 0;) {
        from[i] += w.seconds[i];
        for (const std::size_t d : w.graph.needs[i])
            if (from[i] > from[d]) {
                from[d] = from[i];
                next[d] = i;
            }
    }
    // from[d] held the best chain after d before d's own seconds were added.
    HeaviestChain c;
    if (n == 0) return c;
    std::size_t at =
        static_cast<std::size_t>(std::max_element(from.begin(), from.end()) - from.begin());
    for (; at < n; at = next[at]) {
        c.nodes.push_back(at);
        const double s = w.seconds[at];
        switch (w.nodes[at].kind) {
            case WorkNode::Kind::pair:
                c.pair_seconds += s;
                break;
            case WorkNode::Kind::range:
                c.range_seconds += s;
                break;
            case WorkNode::Kind::write_wdl:
            case WorkNode::Kind::wdl_estimate:
            case WorkNode::Kind::wdl_choice:
            case WorkNode::Kind::wdl_part:
            case WorkNode::Kind::wdl_write:
            case WorkNode::Kind::write_part:
            case WorkNode::Kind::write:
                c.write_seconds += s;
                break;
        }
    }
    return c;
}

}  // namespace damas
