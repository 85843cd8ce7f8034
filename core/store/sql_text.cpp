#include "store/sql_text.h"

namespace parasight::store {
namespace {

std::string quoted(std::string_view text, char quote) {
    std::string written(1, quote);
    for (const char c : text) {
        if (c == quote) written += quote;
        written += c;
    }
    return written + quote;
}

}  // namespace

std::string quoted_identifier(std::string_view name) { return quoted(name, '"'); }

std::string quoted_text(std::string_view text) { return quoted(text, '\''); }

}  // namespace parasight::store
