#pragma once
// Calculon's three input files (github.com/calculon-ai/calculon: calculon/system.py, calculon/llm/llm.py), read with
// every problem located at its FILE:LINE:COL (yaml-cpp reads JSON):
//
//   system      the processor's matrix and vector peaks per datatype with efficiency tables by operation size, its
//               memories (mem1: the device's, mem2: an offload tier), how compute and memory time combine, and the
//               networks (bandwidth in GB/s of 10^9 B, an efficiency, a latency in s once per operation, each
//               operation's traffic as scalar × (1 + offset / n) of its data)
//   model       a transformer's hidden size, feed-forward width, sequence, attention heads and head size, blocks
//   execution   the parallel degrees and the network each uses, batch, micro-batch, datatype, recomputation,
//               interleaving, optimizer sharding, tensor-parallel communication, overlaps, offloads
//
// What the numbers mean in ParaSight's terms is calculon_import.h's business.

#include "diagnostics/diagnostic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// An operation's traffic on a network: scalar × (1 + offset / n) × its data (Network.time); p2p has no offset.
struct CalculonNetworkOp {
    double scalar = 1.0;
    double offset = 0.0;
};

struct CalculonNetwork {
    double bandwidth_GBps = 0.0;  // 10^9 bytes a second, per processor
    double efficiency = 1.0;
    std::int64_t size = 0;        // processors the network can join
    double latency_s = 0.0;       // once per operation
    CalculonNetworkOp p2p;
    CalculonNetworkOp reduce_scatter;
    CalculonNetworkOp all_gather;
    CalculonNetworkOp all_reduce;
    bool must_be_filled = false;  // the processors using it must divide its size
    double processor_usage = 0.0; // the share of the processor communication on it takes
    SourceLocation written_at;
};

struct CalculonSystem {
    // Per Calculon datatype ("float16", "bfloat16", "float32", "float8"): the matrix unit's peak (TFLOPS) and the
    // efficiency its largest operations reach (the table's first row).
    std::map<std::string, double, std::less<>> matrix_TFLOPS;
    std::map<std::string, double, std::less<>> matrix_efficiency;
    std::map<std::string, double, std::less<>> vector_TFLOPS;
    double memory_GiB = 0.0;        // mem1, 2^30 bytes
    double memory_GBps = 0.0;       // mem1, 10^9 B/s
    double memory_efficiency = 1.0; // mem1's table's first row
    double offload_GiB = 0.0;       // mem2
    double offload_GBps = 0.0;
    std::string processing_mode;    // "roofline" (max of compute and memory time) or "no_overlap" (their sum)
    std::vector<CalculonNetwork> networks;
};

struct CalculonModel {
    std::int64_t hidden = 0;
    std::int64_t feedforward = 0;
    std::int64_t seq_size = 0;
    std::int64_t attn_heads = 0;
    std::int64_t attn_size = 0;
    std::int64_t num_blocks = 0;
};

struct CalculonExecution {
    std::int64_t num_procs = 0;
    std::int64_t tensor_par = 1;
    std::int64_t pipeline_par = 1;
    std::int64_t data_par = 1;
    std::int64_t tensor_par_net = 0;
    std::int64_t pipeline_par_net = 0;
    std::int64_t data_par_net = 0;
    std::int64_t batch_size = 0;
    std::int64_t microbatch_size = 0;
    std::string datatype;
    bool fused_activation = false;
    std::string attention_type;        // multihead, multiquery
    std::string activation_recompute;  // none, attn_only, full
    std::int64_t pipeline_interleaving = 1;
    bool optimizer_sharding = false;
    std::string tensor_par_comm_type;  // ar, p2p_rs_ag, rs_ag
    std::string tensor_par_overlap;    // none, ring, pipe
    bool seq_par_ag_redo = false;
    bool data_par_overlap = false;
    bool weight_offload = false;
    bool activations_offload = false;
    bool optimizer_offload = false;
    bool training = true;
    // Where each key's value was written, for messages about what it means here.
    std::map<std::string, SourceLocation, std::less<>> written_at;
};

// Every problem goes to `diagnostics` (file `file_name`); nullopt when there was any.
[[nodiscard]] std::optional<CalculonSystem> read_calculon_system(std::string_view text, const std::string& file_name,
                                                                 Diagnostics& diagnostics);
[[nodiscard]] std::optional<CalculonModel> read_calculon_model(std::string_view text, const std::string& file_name,
                                                               Diagnostics& diagnostics);
[[nodiscard]] std::optional<CalculonExecution> read_calculon_execution(std::string_view text,
                                                                       const std::string& file_name,
                                                                       Diagnostics& diagnostics);

// The JSON Calculon reads: efficiency tables of one row (every size at the one efficiency), each network's ops as
// its scalar and offset (p2p's offset null), keys in Calculon's order.
[[nodiscard]] std::string write_calculon_system(const CalculonSystem& system);
[[nodiscard]] std::string write_calculon_model(const CalculonModel& model);
[[nodiscard]] std::string write_calculon_execution(const CalculonExecution& execution);

enum class CalculonFileKind { system, model, execution };

// Which of the three a file is, by its keys (networks, hidden, num_procs); nullopt when it is none of them or is not
// a mapping — for the window, which takes the three in any order.
[[nodiscard]] std::optional<CalculonFileKind> calculon_file_kind(std::string_view text);

}  // namespace parasight
