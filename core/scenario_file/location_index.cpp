// Where each value of a scenario file was written, so that checks made on values point at the right line.
#include "scenario_file/scenario_readers.h"

namespace parasight {

SourceLocation LocationIndex::find(std::string_view path) const {
    std::string key(path);
    while (true) {
        if (const auto it = locations_.find(key); it != locations_.end()) return it->second;
        const auto cut = key.find_last_of(".[");
        if (cut == std::string::npos) break;
        key.resize(cut);
    }
    if (const auto it = locations_.find(key); it != locations_.end()) return it->second;
    return SourceLocation{file_, 1, 1};
}

}  // namespace parasight
