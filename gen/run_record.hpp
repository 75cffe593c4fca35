// What `damas gen` and `damas gen-rules` do around their work on a folder: take the writer's
// lock (gen/folder_lock.hpp), record the plan in the manifest (gen/manifest.hpp) before the
// first file, and every file's size and checksum once the run is done. Two calls in each
// driver: the constructor before writing, finish() at the end.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/folder_lock.hpp"
#include "gen/manifest.hpp"

namespace damas {

struct GenerateOptions;
struct RuleGenerateOptions;
class Progress;

class WriterRun {
  public:
    WriterRun(const GenerateOptions& o, const std::vector<Material>& classes, Progress& progress);
    WriterRun(const RuleGenerateOptions& o, const std::vector<Material>& classes,
              Progress& progress);
    // Records every planned file in the manifest, the run complete.
    void finish();

  private:
    WriterRun(const std::filesystem::path& dir, Variant v, RunKind kind,
              const std::vector<Material>& classes, const std::string& options_json, bool durable,
              Progress& progress);
    std::filesystem::path dir_;
    Variant variant_;
    RunKind kind_;
    std::vector<Material> classes_;
    bool durable_;
    FolderLock lock_;
};

}  // namespace damas
