#pragma once
// A peer tool's input file as an importer reads it: what messages call it and its bytes (read within the input
// bound by the front end).

#include <string>

namespace parasight {

struct PeerFile {
    std::string name;  // what messages call it: the path as the user gave it
    std::string text;
};

}  // namespace parasight
