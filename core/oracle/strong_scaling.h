#pragma once
// The oracle over a range of PE counts (docs/oracle.md §3): for each p and each strategy, the fastest arrangement of
// the p PEs that the strategy's limits allow — or, when none does, why — and the fastest strategy at p.

#include "oracle/oracle_problem.h"
#include "oracle/paradl_oracle.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parasight {

struct OracleChoice {
    OracleStrategy strategy = OracleStrategy::serial;
    OraclePes pes;
    OracleEstimate estimate;
};

// The arrangement of p PEs for `strategy` with the shortest epoch among those its limits allow and whose memory fits
// (among those that do not fit when none does): every split p1 × p2 of the hybrids, every grid pw × ph of the
// spatial ones. When none is allowed, the one that keeps the most data parallelism B allows (the largest p1 ≤ B) and
// the grid closest to square, with its reason.
[[nodiscard]] OracleChoice oracle_choice(const OracleProblem& problem, OracleStrategy strategy, std::int64_t p);

// The arrangement in words: "128" PEs, a spatial grid "16 × 8", a hybrid's "32 × 4", data × a grid "32 × 2 × 2".
[[nodiscard]] std::string oracle_arrangement_text(const OracleChoice& choice);

struct OracleScalingPoint {
    std::int64_t p = 1;
    OracleNetwork network;
    std::vector<OracleChoice> choices;  // one per strategy asked for, in that order
    // The allowed choice that fits in memory with the shortest epoch (the first of those equal to 12 digits); none
    // when none fits.
    std::optional<std::size_t> best;
};

// The PE counts the oracle shows unless told otherwise: powers of two up to 1024 (ParaDL's range), or up to the
// cluster's NPUs when it has more.
[[nodiscard]] std::vector<std::int64_t> oracle_default_pes(std::int64_t cluster_npus);

// `problem` as oracle_problem made it, its α and β set for each p from the topology.
[[nodiscard]] std::vector<OracleScalingPoint> oracle_strong_scaling(OracleProblem problem,
                                                                    const std::vector<Dimension>& topology,
                                                                    std::span<const std::int64_t> pes,
                                                                    std::span<const OracleStrategy> strategies);

}  // namespace parasight
