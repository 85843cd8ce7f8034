#pragma once
// A look at a scenario file's text before yaml-cpp parses it, for two things yaml-cpp cannot be trusted with or words
// poorly: nesting so deep that a recursive parser could exhaust the stack, and tabs where YAML wants indentation
// (yaml-cpp says "illegal map value" a few characters on). It follows YAML's lexical structure only as far as these
// need — quoted scalars (across lines too), comments, block scalars (| and >), flow collections ([ ] { }) and block
// indentation — and is no parser: yaml-cpp still decides what the text means. Internal to core/scenario_file.

#include <optional>
#include <string_view>

namespace parasight {

// How deeply lists and mappings may nest in a scenario file: far past the handful a scenario needs (a CNN block's
// layer is 5 deep), far below what would strain yaml-cpp's recursion.
inline constexpr int max_yaml_nesting_depth = 256;

// A place in the text: line and column from 1, the column in bytes.
struct TextPosition {
    int line = 0;
    int column = 0;
};

struct YamlTextScan {
    // Where the nesting first goes past max_yaml_nesting_depth: the bracket that opens one level too many, or the
    // start of a line indented one level too deep. When set, the scan stopped there.
    std::optional<TextPosition> too_deep;
    // The first tab in the indentation of a line of block structure — not inside a quoted or block scalar, a flow
    // collection, a blank line or a comment line, where YAML allows tabs.
    std::optional<TextPosition> first_indentation_tab;
};

[[nodiscard]] YamlTextScan scan_yaml_text(std::string_view text);

}  // namespace parasight
