#pragma once
// A pipeline whose bubble has its closed form to 1e-9, shared by the suites that check schedules against it
// (test_simulation, test_steady_state).

#include <string>

namespace parasight::testing {

// For bubble fractions: sequences of 10^8 tokens make the O(s²) attention core dwarf everything that is not the same
// on every stage — the one-wide logits (2·b·s·h·V with V = 1) on the last stage, the embedding on the first, the
// optimizer step, the pipeline sends over a 1000 TB/s link. What is left over is ≈ 1/(2·s·L) of a stage, < 1e-9.
inline std::string bubble_yaml(const char* schedule, int stages, int micro_batches, int chunks, int layers_per_chunk,
                        int micro_batch_group = 0) {
    return "schema: 1\nname: bubble\nmodel: {kind: transformer, layers: " +
           std::to_string(layers_per_chunk * stages * chunks) +
           ", hidden: 64, heads: 1, seq_len: 100000000, vocab: 1}\n"
           "training: {global_batch: " + std::to_string(micro_batches) + ", micro_batch: 1, dtype: bf16}\n"
           "cluster:\n  device: {name: ideal, peak: {bf16: 1 TFLOP/s}, memory: 80 GiB, memory_bandwidth: 1000 TB/s, "
           "matmul_efficiency: 1, matmul_half_dim: 0, memory_efficiency: 1}\n"
           "  topology: [{kind: switch, size: " + std::to_string(stages) +
           ", bandwidth: 1000 TB/s, latency: 0 s}]\n"
           "parallelism: {pp: " + std::to_string(stages) + ", schedule: " + schedule +
           ", virtual_stages: " + std::to_string(chunks) +
           (micro_batch_group > 0 ? ", micro_batch_group: " + std::to_string(micro_batch_group) : std::string()) +
           "}\n"
           "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
}

}  // namespace parasight::testing
