#include "folder/manifest.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "folder/files.hpp"
#include "rules/error.hpp"
#include "table/format.hpp"
#include "table/hash.hpp"

namespace damas {
namespace {

using nlohmann::json;

std::string hex64(std::uint64_t v) {
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
    return s;
}

std::uint64_t parse_hex64(const std::string& s) {
    if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw Error("bad checksum '" + s + "'");
    return std::stoull(s, nullptr, 16);
}

[[noreturn]] void fail_io(const std::filesystem::path& file, const char* what, int err) {
    throw Error(file.string() + ": " + what + ": " + std::strerror(err));
}

json to_json(const Manifest& m) {
    json j;
    j["format"] = "damas-manifest";
    j["version"] = 1;
    j["variant"] = m.variant.name();
    j["generator"] = m.generator;
    json runs = json::object();
    for (const auto& [key, r] : m.runs) {
        json classes = json::array();
        for (Material c : r.classes) classes.push_back(c.name());
        runs[key] = {{"classes", classes},
                     {"options", json::parse(r.options_json)},
                     {"generator", r.generator},
                     {"complete", r.complete}};
        if (!r.mtc.empty()) {
            json mtc = json::array();
            for (Material c : r.mtc) mtc.push_back(c.name());
            runs[key]["mtc"] = mtc;
        }
    }
    j["runs"] = runs;
    json files = json::object();
    for (const auto& [name, f] : m.files)
        files[name] = {{"size", f.size}, {"xxh64", hex64(f.xxh64)}};
    j["files"] = files;
    j["units"] = json::parse(m.units_json);
    return j;
}

Manifest from_json(const json& j) {
    if (!j.is_object() || j.value("format", "") != "damas-manifest")
        throw Error("not a damas manifest");
    if (j.at("version").get<int>() != 1)
        throw Error("manifest version " + j.at("version").dump() + " is not supported");
    Manifest m;
    const auto v = parse_variant(j.at("variant").get<std::string>());
    if (!v) throw Error("unknown variant " + j.at("variant").dump());
    m.variant = *v;
    m.generator = j.value("generator", "");
    for (const auto& [key, r] : j.at("runs").items()) {
        ManifestRun run;
        for (const auto& c : r.at("classes")) {
            const auto mat = Material::parse(c.get<std::string>());
            if (!mat) throw Error("bad class " + c.dump());
            run.classes.push_back(*mat);
        }
        run.options_json = r.value("options", json::object()).dump();
        run.generator = r.value("generator", "");
        run.complete = r.at("complete").get<bool>();
        for (const auto& c : r.value("mtc", json::array())) {
            const auto mat = Material::parse(c.get<std::string>());
            if (!mat) throw Error("bad class " + c.dump());
            run.mtc.insert(*mat);
        }
        m.runs[key] = run;
    }
    for (const auto& [name, f] : j.at("files").items())
        m.files[name] = {f.at("size").get<std::uint64_t>(),
                         parse_hex64(f.at("xxh64").get<std::string>())};
    m.units_json = j.value("units", json::object()).dump();
    return m;
}

std::vector<Material> merged(std::vector<Material> a, const std::vector<Material>& b) {
    std::set<Material> all(a.begin(), a.end());
    for (Material m : b)
        if (all.insert(m).second) a.push_back(m);
    return a;
}

Manifest load_or_new(const std::filesystem::path& dir, Variant v) {
    if (auto m = read_manifest_if_any(dir, v)) return *m;
    Manifest m;
    m.variant = v;
    return m;
}

}  // namespace

std::string RunKind::key() const {
    if (!rules) return "gen";
    return edition == Edition::fmjd ? "gen-rules-fmjd" : "gen-rules";
}

std::vector<std::string> expected_files(Variant v, const RunKind& kind, Material m,
                                        Metric distance) {
    std::vector<std::string> out;
    if (!kind.rules) {
        for (Metric metric : {Metric::wdl, distance})
            out.push_back(m.name() + "." + metric_name(metric));
        return out;
    }
    const DrawRules rules = draw_rules(v, kind.edition);
    for (const Metric metric : rule_metrics(rules, m))
        out.push_back(m.name() + "." + metric_name(metric));
    return out;
}

std::filesystem::path manifest_path(const std::filesystem::path& dir, Variant v) {
    return dir / v.name() / manifest_name;
}

Manifest read_manifest(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(file.string() + ": cannot be read");
    try {
        return from_json(json::parse(in));
    } catch (const json::exception& e) {
        throw Error(file.string() + ": not a valid manifest (" + e.what() + ")");
    } catch (const Error& e) {
        throw Error(file.string() + ": " + e.what());
    } catch (const std::exception& e) {
        throw Error(file.string() + ": not a valid manifest (" + e.what() + ")");
    }
}

std::optional<Manifest> read_manifest_if_any(const std::filesystem::path& dir, Variant v) {
    const std::filesystem::path file = manifest_path(dir, v);
    if (!std::filesystem::exists(file)) return std::nullopt;
    return read_manifest(file);
}

void write_manifest(const std::filesystem::path& file, const Manifest& m, bool durable) {
    const std::string text = to_json(m).dump(1) + "\n";
    std::filesystem::path tmp = file;
    tmp += ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail_io(tmp, "cannot write the manifest", errno);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            ::close(fd);
            ::unlink(tmp.c_str());
            fail_io(tmp, "cannot write the manifest", err);
        }
        done += static_cast<std::size_t>(n);
    }
    if (durable && ::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        fail_io(tmp, "cannot write the manifest", err);
    }
    ::close(fd);
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail_io(file, "cannot write the manifest", err);
    }
    if (durable) sync_folder(file.parent_path());  // checked, as the tables' (folder/files.hpp)
}

std::uint64_t file_xxh64(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(file.string() + ": cannot be read");
    Xxh64Stream h;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto n = static_cast<std::size_t>(in.gcount());
        if (n) h.update(std::as_bytes(std::span(buffer.data(), n)));
    }
    if (in.bad()) throw Error(file.string() + ": read error");
    return h.digest();
}

void begin_run(const std::filesystem::path& dir, Variant v, const RunKind& kind,
               const std::vector<Material>& classes, const std::string& options_json, bool durable,
               const std::set<Material>& mtc) {
    Manifest m = load_or_new(dir, v);
    m.generator = generator_version();
    ManifestRun& run = m.runs[kind.key()];
    run.classes = merged(run.classes, classes);
    for (Material c : classes) {
        if (mtc.count(c))
            run.mtc.insert(c);
        else
            run.mtc.erase(c);
    }
    run.options_json = options_json;
    run.generator = generator_version();
    run.complete = false;
    write_manifest(manifest_path(dir, v), m, durable);
}

void finish_run(const std::filesystem::path& dir, Variant v, const RunKind& kind,
                const std::vector<Material>& classes, bool durable) {
    Manifest m = load_or_new(dir, v);
    ManifestRun& run = m.runs[kind.key()];
    run.classes = merged(run.classes, classes);
    const std::filesystem::path folder = dir / v.name();
    for (Material c : classes)
        for (const std::string& name : expected_files(v, kind, c, run.distance(c))) {
            const std::filesystem::path file = folder / name;
            m.files[name] = {std::filesystem::file_size(file), file_xxh64(file)};
        }
    run.complete = true;
    for (Material c : run.classes)
        for (const std::string& name : expected_files(v, kind, c, run.distance(c)))
            if (!m.files.count(name)) run.complete = false;
    write_manifest(manifest_path(dir, v), m, durable);
}

}  // namespace damas
