#include "diagnostics/diagnostic.h"

namespace parasight {

std::string Diagnostic::to_string() const {
    std::string text = location.file;
    if (location.line > 0) {
        text += ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
    }
    return text + ": " + message;
}

}  // namespace parasight
