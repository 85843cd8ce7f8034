#pragma once
// The ParaDL oracle (Kahira et al. 2021, Table 1): closed forms for the per-PE computation time, communication time
// and largest memory of a CNN trained for one epoch under each parallel strategy, and the limit that bounds each
// strategy's PE count. Instant: no graph, no engine — what a student changes, the answer follows.
//
// Notation as the paper's: G layers; |x_i|, |y_i| a layer's input and output activation elements per sample, |w_i|
// its weights, |b_i| its biases; F_i its filters (output channels), C_i its input channels, W_i × H_i its input's
// spatial size; FW_i, BW_i its forward and backward time per sample, WU_i its weight update per iteration; D samples
// per epoch, B the mini-batch, p the PEs; α the latency and β the per-byte time of the links the PEs span; δ bytes
// per element; γ the memory overhead factor of the framework.

#include "common/enum_names.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct OracleLayer {
    std::string name;              // as the model lists it, for the limits' reasons
    double input_elements = 0.0;   // |x_i|, per sample
    double output_elements = 0.0;  // |y_i|, per sample
    double weights = 0.0;          // |w_i|
    double biases = 0.0;           // |b_i|
    std::int64_t filters = 1;      // F_i
    std::int64_t channels = 1;     // C_i
    std::int64_t width = 1;        // W_i, of the input
    std::int64_t height = 1;       // H_i
    std::int64_t output_width = 1;   // of the output, whose gradient spatial parallelism exchanges in backward
    std::int64_t output_height = 1;
    std::int64_t kernel = 1;       // the convolution's kernel side (1 for fc and for what needs no neighbours)
    // Whether spatial parallelism splits the layer over its grid. Fully connected layers run on the gathered
    // activation, as the spatial implementations do: they add no halo and do not bound p by their 1 × 1 "image".
    bool spatial = true;
    double forward_s = 0.0;        // FW_i, one sample
    double backward_s = 0.0;       // BW_i, one sample
    double update_s = 0.0;         // WU_i, one iteration
};

struct OracleProblem {
    std::vector<OracleLayer> layers;
    double samples = 0.0;           // D, per epoch
    double batch = 0.0;             // B, the mini-batch of all PEs together
    double micro_batches = 1.0;     // S, the pipeline's segments per mini-batch (layer parallelism)
    double alpha_s = 0.0;           // α
    double beta_s_per_byte = 0.0;   // β
    double element_bytes = 4.0;     // δ
    double memory_overhead = 1.0;   // γ
    double memory_capacity_bytes = 0.0;  // of one PE; 0: unbounded. The closed forms do not read it; choices do.

    [[nodiscard]] double iterations() const noexcept { return samples / batch; }  // per epoch, D / B
    [[nodiscard]] bool fits(double memory_bytes) const noexcept {
        return memory_capacity_bytes <= 0.0 || memory_bytes <= memory_capacity_bytes;
    }
};

enum class OracleStrategy : std::uint8_t {
    serial,
    data,
    spatial,
    layer,
    filter,
    channel,
    data_filter,
    data_spatial,
    data_layer,
};
inline constexpr std::array<EnumName<OracleStrategy>, 9> oracle_strategy_names{{
    {OracleStrategy::serial, "serial"},
    {OracleStrategy::data, "data"},
    {OracleStrategy::spatial, "spatial"},
    {OracleStrategy::layer, "layer"},
    {OracleStrategy::filter, "filter"},
    {OracleStrategy::channel, "channel"},
    {OracleStrategy::data_filter, "data+filter"},
    {OracleStrategy::data_spatial, "data+spatial"},
    {OracleStrategy::data_layer, "data+layer"},
}};

// Data parallelism composed with another strategy over p = p1 × p2 PEs.
[[nodiscard]] constexpr bool is_hybrid(OracleStrategy strategy) noexcept {
    return strategy == OracleStrategy::data_filter || strategy == OracleStrategy::data_spatial ||
           strategy == OracleStrategy::data_layer;
}

// How the PEs are arranged: p in all; for the hybrids p = p1 × p2 (data × filter, data × spatial, data × layer);
// for spatial parallelism (and the spatial part of data + spatial) a pw × ph grid over each layer's W × H.
struct OraclePes {
    std::int64_t p = 1;
    std::int64_t p1 = 1;  // hybrids: the data-parallel part
    std::int64_t p2 = 1;  // hybrids: the filter or spatial part
    std::int64_t pw = 1;  // spatial: columns of the grid
    std::int64_t ph = 1;  // spatial: rows
};

// A limit the PEs break: the bound they pass, short enough to label a chart ("p ≤ B = 32"), and the reason in words
// ("p = 64 > B = 32: every PE needs a sample").
struct OracleLimit {
    std::string bound;
    std::string reason;
};

// One epoch on one PE. The times and memory are the closed forms' even for PEs a limit rules out.
struct OracleEstimate {
    double compute_s = 0.0;
    double communication_s = 0.0;
    double memory_bytes = 0.0;               // the most any PE holds
    double bubble_s = 0.0;                   // of compute_s: a pipeline's fill and drain, (p − 1)/S of its passes
    std::optional<OracleLimit> ruled_out;    // the limit the PEs break; else nothing
    [[nodiscard]] double epoch_s() const noexcept { return compute_s + communication_s; }
};

[[nodiscard]] OracleEstimate oracle_estimate(const OracleProblem& problem, OracleStrategy strategy,
                                             const OraclePes& pes);

// The elements a PE receives from its neighbours before a layer can run on its tile of a pw × ph grid: the ⌊k/2⌋
// rows and columns on each side the kernel reaches into, of every channel (corners aside).
[[nodiscard]] double halo_elements(std::int64_t channels, std::int64_t width, std::int64_t height, std::int64_t kernel,
                                   std::int64_t pw, std::int64_t ph);

}  // namespace parasight
