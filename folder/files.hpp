// A database folder's files: where each lives, how a write into the folder is made durable, and
// the writer's name that every file records.
//
// Owns: the folder's layout. Tables are <dir>/<variant>/<class>.<metric> (table/format.hpp:
// table_path), the manifest and the writer lock are beside them (folder/manifest.hpp,
// folder/lock.hpp), and a bounded run's unit files and solved class files are in
// <dir>/<variant>/units/ (gen/units/unit_file.hpp, gen/units/solved_class_file.hpp).
#pragma once

#include <cstdint>
#include <filesystem>

#include "index/material.hpp"
#include "rules/variant.hpp"
#include "table/format.hpp"

namespace damas {

std::filesystem::path default_database_dir();  // $DAMAS_DB or ./db

// The folder of every unit file of the variant, and the files in it.
std::filesystem::path units_dir(const std::filesystem::path& dir, const Variant& v);
// A pair solved for mtc has its own names (<class>.<slice>.mtc.unit): a run resumed with the
// other metric solves its units again instead of reading distances of the other kind.
std::filesystem::path unit_path(const std::filesystem::path& dir, const Variant& v, Material pair,
                                int slice, Metric distance);
// A class solved for mtc has its own name (<class>.mtc.solved): a dtw run never reads its
// values as distances to the end. Metric::wdl names the values-only form (<class>.wdl.solved:
// gen/units/solved_class_file.hpp).
std::filesystem::path solved_class_path(const std::filesystem::path& dir, const Variant& v,
                                        Material m, Metric distance = Metric::dtw);

// fsync of a folder, checked (throws Error): makes the renames into it durable.
void sync_folder(const std::filesystem::path& folder);
// Counts an fsync of a file made before its rename (the writers call it).
void count_durable_sync();
// The fsync calls made in this process (files and folders), for tests.
std::uint64_t durable_syncs();

// The generator's version string, written in every file header and in the manifest.
const char* generator_version();

}  // namespace damas
