#include "diagnostics/diagnostic.h"

namespace parasight {

std::string Diagnostic::to_string() const {
    if (location.file.empty()) {
        // Most messages name their value already ("training.micro_batch must be …"): say it once.
        const bool names_path = message.starts_with(path) &&
                                (message.size() == path.size() || message[path.size()] == ' ' ||
                                 message[path.size()] == ':');
        return path.empty() || names_path ? message : path + ": " + message;
    }
    std::string text = location.file;
    if (location.line > 0) {
        text += ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
    }
    return text + ": " + message;
}

}  // namespace parasight
