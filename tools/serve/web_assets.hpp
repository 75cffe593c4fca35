// The explorer page's files (web/), embedded in the binary at build time by
// cmake/EmbedFiles.cmake, so that `damas serve` needs no other file and no network.
#pragma once

#include <span>
#include <string_view>

namespace damas::cli {

struct WebAsset {
    std::string_view path;          // "/index.html"
    std::string_view content_type;  // "text/html; charset=utf-8"
    std::string_view body;
};

std::span<const WebAsset> web_assets();

}  // namespace damas::cli
