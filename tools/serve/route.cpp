// The explorer's routes (see route.hpp).
#include "tools/serve/route.hpp"

#include "tools/serve/target.hpp"
#include "tools/serve/web_assets.hpp"

namespace damas::cli {
namespace {

constexpr std::string_view api_root = "/api/v1";

// "/api/v1/{variant}[/{what}]" split into the variant and what follows ("" for none); nullopt
// for any other shape.
struct ApiPath {
    std::string_view variant, what;
};

std::optional<ApiPath> api_path(std::string_view path) {
    if (!path.starts_with(api_root) || path.size() <= api_root.size() ||
        path[api_root.size()] != '/')
        return std::nullopt;
    path.remove_prefix(api_root.size() + 1);
    const std::size_t slash = path.find('/');
    ApiPath p{path.substr(0, slash), {}};
    if (slash != std::string_view::npos) p.what = path.substr(slash + 1);
    if (p.variant.empty() || p.what.find('/') != std::string_view::npos) return std::nullopt;
    if (slash != std::string_view::npos && p.what.empty()) return std::nullopt;
    return p;
}

ApiReply asset(const WebAsset& a) {
    return {
        200, std::string(a.body), std::string(a.content_type), {{"Cache-Control", "no-cache"}}, {}};
}

}  // namespace

ApiReply route(const ExplorerApi& api, std::string_view target) {
    std::string problem;
    const std::optional<Target> t = decode_target(target, problem);
    if (!t) return error_reply(400, problem);
    if (t->path == api_root) return api.variants();
    if (const auto p = api_path(t->path)) {
        if (p->what.empty()) return api.position(p->variant, t->query);
        if (p->what == "svg") return api.svg(p->variant, t->query);
        if (p->what == "stats") return api.stats(p->variant, t->query);
        return error_reply(404, "no such page");
    }
    const std::string_view path = t->path == "/" ? std::string_view("/index.html") : t->path;
    for (const WebAsset& a : web_assets())
        if (a.path == path) return asset(a);
    // "/{variant}": the lichess-shaped tablebase API.
    if (const std::string_view name = std::string_view(t->path).substr(1);
        !name.empty() && name.find('/') == std::string_view::npos)
        return api.tablebase(name, t->query);
    return error_reply(404, "no such page");
}

}  // namespace damas::cli
