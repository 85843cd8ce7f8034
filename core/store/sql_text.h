#pragma once
// Names and words written into SQL text where a parameter cannot stand (a column named by a sweep's axis path, a
// view's name, a filter's literal): quoted as SQLite reads them, never the caller's text as it is.

#include <string>
#include <string_view>

namespace parasight::store {

// "parallelism.tp" → "\"parallelism.tp\"", a double quote inside doubled.
[[nodiscard]] std::string quoted_identifier(std::string_view name);
// it's → 'it''s'.
[[nodiscard]] std::string quoted_text(std::string_view text);

}  // namespace parasight::store
