#pragma once
// ASTRA-sim 2.0's network file, as its analytical backends read it (astra-network-analytical's NetworkParser): a
// YAML mapping of four lists of equal length, one entry per dimension, innermost first —
//
//   topology:   [Ring, FullyConnected, Switch]
//   npus_count: [2, 8, 4]          each more than 1
//   bandwidth:  [200, 100, 50]     GB/s, where a GB is 2^30 bytes (bw_GBps_to_Bpns), per link and direction
//   latency:    [500, 500, 500]    ns per link
//
// Read with every problem located at its FILE:LINE:COL, and written back. What the numbers mean in ParaSight's terms
// is astra_sim_import.h's and astra_sim_export.h's business.

#include "diagnostics/diagnostic.h"
#include "topology/dimension.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct AstraSimDimension {
    DimensionKind kind = DimensionKind::ring;
    int npus = 2;
    double bandwidth_GiBps = 0.0;  // ASTRA-sim's "GB/s" (2^30 bytes a second), per link and direction
    double latency_ns = 0.0;       // per link

    friend bool operator==(const AstraSimDimension&, const AstraSimDimension&) = default;
};

struct AstraSimNetwork {
    std::vector<AstraSimDimension> dimensions;
    // Where each dimension's topology entry was written (for messages about that dimension); empty when made here.
    std::vector<SourceLocation> written_at;
};

// ASTRA-sim's names of the kinds: Ring, FullyConnected, Switch.
[[nodiscard]] std::string_view astra_sim_topology_name(DimensionKind kind) noexcept;

// Every problem goes to `diagnostics` (file `file_name`); nullopt when there was any.
[[nodiscard]] std::optional<AstraSimNetwork> read_astra_sim_network(std::string_view text, const std::string& file_name,
                                                                    Diagnostics& diagnostics);

// The file ASTRA-sim reads, each dimension's values in a column; `comment` lines (without '#') head it.
[[nodiscard]] std::string write_astra_sim_network(const AstraSimNetwork& network,
                                                  const std::vector<std::string>& comment);

}  // namespace parasight
