#include "export/offload_words.h"

#include <vector>

namespace parasight {

std::string offloaded_states_words(const OffloadUse& use) {
    std::vector<std::string> kinds;
    if (use.parameters) kinds.emplace_back("parameters");
    if (use.gradients) kinds.emplace_back("gradients");
    if (use.optimizer) kinds.emplace_back("optimizer states");
    std::string words;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (k > 0) words += k + 1 == kinds.size() ? " and " : ", ";
        words += kinds[k];
    }
    return words;
}

}  // namespace parasight
