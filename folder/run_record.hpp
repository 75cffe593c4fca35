// What `damas gen`, `gen-rules` and `recode` do around their work on a folder: take the writer's
// lock (folder/lock.hpp), record the plan in the manifest (folder/manifest.hpp) before the
// first file, and every file's size and checksum once the run is done. Two calls in each
// driver: the constructor before writing, finish() at the end.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "folder/lock.hpp"
#include "folder/manifest.hpp"
#include "index/class_selection.hpp"

namespace damas {

// A run as the manifest records it: its folder, kind and options (a JSON object).
struct RunDescription {
    std::filesystem::path dir;
    Variant variant;
    RunKind kind;
    std::string options_json = "{}";
    bool durable = true;     // fsync the manifest (folder/files.hpp)
    std::set<Material> mtc;  // gen: the planned classes whose distance is mtc
};

// The options every run records: variant, pieces, max_per_side, class.
std::string selection_options_json(const ClassSelection& selection);

class WriterRun {
  public:
    // Takes the lock (throws Error if another process holds it) and records the planned
    // classes; `message` is told when a lock left by a run that did not finish is taken over.
    WriterRun(const RunDescription& run, const std::vector<Material>& classes,
              const std::function<void(const std::string&)>& message);
    // Records every planned file in the manifest, the run complete.
    void finish();

  private:
    RunDescription run_;
    std::vector<Material> classes_;
    FolderLock lock_;
};

}  // namespace damas
