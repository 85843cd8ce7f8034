#pragma once
// ASTRA-sim 2.0's system file (a JSON object its Sys::initialize_sys and CollectiveImplLookup read): the collective
// implementation of every operation on every dimension ("all-reduce-implementation": ["ring", "direct"]), how a
// collective is cut into chunks ("preferred-dataset-splits"), the delay at each message's endpoints, the roofline's
// peak and memory bandwidth, and the scheduler's settings. Read with every problem located at its FILE:LINE:COL
// (yaml-cpp reads JSON), and written back.

#include "diagnostics/diagnostic.h"
#include "topology/dimension.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct AstraSimSystem {
    // Each dimension's collective algorithm, one for every operation (the file's lists agree; ParaSight runs one
    // algorithm a dimension); empty when the file names none.
    std::vector<CollectiveAlgorithm> algorithms;
    SourceLocation algorithms_at;  // the first implementation list; the entries' places below
    std::vector<SourceLocation> algorithm_at;
    std::optional<std::int64_t> dataset_splits;  // preferred-dataset-splits: the chunks a collective is cut into
    std::optional<double> endpoint_delay_ns;     // endpoint-delay: added to every message (ticks of 1 ns)
    bool roofline = false;                       // roofline-enabled: compute timed from peak-perf and local-mem-bw
    std::optional<double> peak_TFLOPS;           // peak-perf, 10^12 FLOP/s
    std::optional<double> local_memory_GBps;     // local-mem-bw, 10^9 B/s
    // Settings read that ParaSight has no counterpart for, each "key: value — why", in the file's order.
    std::vector<std::string> not_modelled;
};

// ASTRA-sim's name of an algorithm (ring, direct, halvingDoubling, doubleBinaryTree); nullopt for those it has not
// (in-switch reduction, NCCL's choice).
[[nodiscard]] std::optional<std::string_view> astra_sim_algorithm_name(CollectiveAlgorithm algorithm) noexcept;

// Every problem goes to `diagnostics` (file `file_name`); nullopt when there was any.
[[nodiscard]] std::optional<AstraSimSystem> read_astra_sim_system(std::string_view text, const std::string& file_name,
                                                                  Diagnostics& diagnostics);

// The JSON object ASTRA-sim reads: the algorithms for all four operations, the splits, the endpoint delay, the
// roofline, and the scheduler as ParaSight runs collectives (FIFO, one active chunk, no local-bandwidth ordering).
[[nodiscard]] std::string write_astra_sim_system(const AstraSimSystem& system);

}  // namespace parasight
