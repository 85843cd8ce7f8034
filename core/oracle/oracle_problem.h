#pragma once
// The oracle's inputs for a CNN scenario (docs/oracle.md §2): every layer of the model with the sizes ParaDL's Table 1
// reads, timed on the scenario's device as the simulation times it; D, B and S from the training; δ from the dtype;
// α and β from the cluster's links for each PE count.

#include "common/expected.h"
#include "oracle/paradl_oracle.h"
#include "scenario/validated_scenario.h"
#include "topology/dimension.h"

#include <cstdint>
#include <vector>

namespace parasight {

// Every layer of the scenario's CNN — |x|, |y|, |w|, |b|, F, C, W × H and kernel from its shapes — with FW and BW
// per sample: the device's time for a micro-batch of training.micro_batch samples (the compute model the simulation
// uses, so that small batches run as inefficiently there as here), divided by micro_batch; WU per iteration: the
// optimizer step's memory traffic for the layer's parameters. D is training.dataset_samples (B when not given: the
// oracle then times one iteration), B global_batch, S the micro-batches of B (global_batch / micro_batch), δ the
// stored element width (what a gradient all-reduce moves), γ 1, the capacity the device's memory. α and β are
// zero: oracle_network fills them for p.
// An error when the model is not a CNN.
[[nodiscard]] Expected<OracleProblem> oracle_problem(const ValidatedScenario& scenario);

// The links p PEs talk over: the first p NPUs of the topology (dimension 0 fastest) span its innermost dimensions
// until their sizes multiply to p. A message crosses the slowest of them, so β = 1 / the least achievable bandwidth
// among them and α = the largest one-hop step latency. Past the cluster's NPUs, the outermost dimension is taken as
// grown to hold p (beyond_cluster says so).
struct OracleNetwork {
    double alpha_s = 0.0;
    double beta_s_per_byte = 0.0;
    std::size_t dimensions = 0;  // spanned, innermost first
    bool beyond_cluster = false;
};
[[nodiscard]] OracleNetwork oracle_network(const std::vector<Dimension>& topology, std::int64_t p);

}  // namespace parasight
