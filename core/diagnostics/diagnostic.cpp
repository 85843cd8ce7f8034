#include "diagnostics/diagnostic.h"

namespace parasight {

std::string Diagnostic::to_string() const {
    if (location.file.empty()) return path.empty() ? message : path + ": " + message;
    std::string text = location.file;
    if (location.line > 0) {
        text += ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
    }
    return text + ": " + message;
}

}  // namespace parasight
