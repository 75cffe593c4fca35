// What a generation run (or one process's share of it) did: classes built and skipped,
// positions, bytes, time, memory, units. Printed by `damas gen` and summed over ranks by
// damas-mpi.
#pragma once

#include <cstdint>
#include <string>

namespace damas {

struct GenerateSummary {
    int classes_built = 0;
    int classes_skipped = 0;
    std::uint64_t positions = 0;  // of the classes built
    double seconds = 0;
    double load_seconds = 0;  // loading (and completing) the solved classes the pairs read
    // Classes loaded whole from their files, and of those, from solved class files (no capture
    // search: gen/units/solved_class_file.hpp).
    std::uint64_t classes_loaded = 0, classes_from_solved_files = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t peak_bytes_estimate = 0;
    std::uint64_t budget_bytes = 0;
    int pairs_in_units = 0;
    std::uint64_t units_written = 0, units_resumed = 0;  // unit files solved, found complete
    // Ranges of cut slices solved (damas-mpi: a slice's men configurations over ranks), each
    // written to its part of the slice's unit (also counted in units_written).
    std::uint64_t slice_ranges_solved = 0;
    // Parts of cut pairs' distance files written (damas-mpi: gen/write/table_parts.hpp).
    std::uint64_t table_parts_written = 0;
    std::uint64_t wdl_parts_written = 0;  // parts of cut pairs' wdl files
    // The process's peak resident memory (VmHWM), and the pair during which it was reached.
    std::uint64_t peak_resident_bytes = 0;
    std::string peak_pair;
};

}  // namespace damas
