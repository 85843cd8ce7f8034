#pragma once
// The files a user picks in File → Import, read (each within the input bound) and told apart: ASTRA-sim's network
// file and its system file (the one ending .json); Calculon's system, model and execution files in any order, each
// known by its keys (interop/calculon_files.h). What cannot be read, is picked twice or is missing is a problem,
// located at the file.

#include "diagnostics/diagnostic.h"
#include "interop/peer_file.h"

#include <QStringList>

#include <optional>

namespace parasight::gui {

struct PickedAstraSimFiles {
    std::optional<PeerFile> network;
    std::optional<PeerFile> system;
    Diagnostics problems;  // empty when `network` is there
};

struct PickedCalculonFiles {
    std::optional<PeerFile> system;
    std::optional<PeerFile> model;
    std::optional<PeerFile> execution;
    Diagnostics problems;  // empty when all three are there
};

[[nodiscard]] PickedAstraSimFiles pick_astra_sim_files(const QStringList& paths);
[[nodiscard]] PickedCalculonFiles pick_calculon_files(const QStringList& paths);

}  // namespace parasight::gui
