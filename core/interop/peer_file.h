#pragma once
// A peer tool's input file as an importer reads it — what messages call it and its bytes (read within the input
// bound by the front end) — and the scenario an importer makes of such files.

#include <string>
#include <vector>

namespace parasight {

struct PeerFile {
    std::string name;  // what messages call it: the path as the user gave it
    std::string text;
};

struct PeerImport {
    std::string yaml;                       // the scenario, commented (it loads: the importer checks)
    // What the files say that ParaSight models otherwise or not at all, each a sentence that starts with the files'
    // keys ("scheduling-policy: LIFO — why").
    std::vector<std::string> not_modelled;
};

}  // namespace parasight
