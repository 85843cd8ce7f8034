#pragma once
// An ASTRA-sim 2.0 network file, and optionally its system file, as a ParaSight scenario (docs/interop.md): each
// dimension with its kind, size, bandwidth, latency and collective algorithm, converted exactly and each conversion
// commented in the YAML written — bandwidth in ASTRA-sim's GB (2^30 bytes) a second; a fully connected dimension's
// direct algorithm using its n − 1 links at once; latency per hop (a switch is two, in both) —, the chunks a
// collective is cut into, the endpoint delay as every step's software latency, the roofline's peak and memory
// bandwidth as the device's. ASTRA-sim describes no model: the scenario's model, batch and device preset are the
// options' placeholders, said so at the top. What ASTRA-sim's files set and ParaSight does not model is listed in a
// comment; what ParaSight cannot express is refused, located at the key.

#include "common/expected.h"
#include "diagnostics/diagnostic.h"
#include "interop/peer_file.h"
#include "topology/dimension.h"

#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct PeerImportOptions {
    std::string device_preset = "a100-80gb";  // ASTRA-sim 2.0's evaluation assumes A100-class compute
    std::string model_preset = "gpt2-small";
};

// The links of a dimension one step of an ASTRA-sim collective uses at once: a fully connected dimension's direct
// algorithm sends to its n − 1 other members together, a link each; every other step sends over one link (a ring's
// to a neighbour, a switch's through the NPU's one link to it).
[[nodiscard]] int astra_sim_links_used(DimensionKind kind, CollectiveAlgorithm algorithm, int npus) noexcept;

// The scenario, or every problem found in the files.
[[nodiscard]] Expected<PeerImport, Diagnostics> import_astra_sim(const PeerFile& network,
                                                                  const std::optional<PeerFile>& system,
                                                                  const PeerImportOptions& options);

}  // namespace parasight
