#pragma once
// A valid scenario whose strategy tree has the most entries a scenario may hold (100 000, scenario/scenario_limits.h):
// a 10 000-layer transformer with ten overridden nodes per layer — the layer, its two blocks and seven of its
// operations. For the loader's test (it loads, and a duplicate at the very end is found) and the loading benchmark.

#include <array>
#include <string>
#include <string_view>

namespace parasight::testing {

inline constexpr int largest_tree_layers = 10'000;
inline constexpr int largest_tree_nodes_per_layer = 10;
// The first entry's line: the tree starts after the 9 lines of the scenario's other sections.
inline constexpr int largest_tree_first_entry_line = 10;

// `duplicate_last`: the last entry names the first entry's node again.
inline std::string scenario_with_largest_strategy_tree(bool duplicate_last = false) {
    static constexpr std::array<std::string_view, largest_tree_nodes_per_layer> nodes{
        "",          ".attention",         ".mlp",          ".attention.qkv", ".attention.attention_scores",
        ".attention.softmax_dropout", ".attention.attention_values", ".mlp.mlp_up", ".mlp.activation", ".mlp.mlp_down"};
    std::string text = "schema: 1\n"
                       "name: largest strategy tree\n"
                       "model: {kind: transformer, layers: 10000, hidden: 64, heads: 1, seq_len: 16, vocab: 100}\n"
                       "training: {global_batch: 1, micro_batch: 1, dtype: bf16}\n"
                       "cluster:\n"
                       "  device: a100-80gb\n"
                       "  topology: [{kind: switch, size: 1, bandwidth: 300 GB/s, latency: 1 us}]\n"
                       "parallelism: {recompute: selective}\n"
                       "strategy_tree:\n";
    text.reserve(text.size() + 60u * largest_tree_layers * largest_tree_nodes_per_layer);
    for (int layer = 0; layer < largest_tree_layers; ++layer) {
        for (std::size_t node = 0; node < nodes.size(); ++node) {
            const bool last = layer == largest_tree_layers - 1 && node + 1 == nodes.size();
            const std::string name = duplicate_last && last ? std::string("layer[0]")
                                                            : "layer[" + std::to_string(layer) + "]" +
                                                                  std::string(nodes[node]);
            text += "  - {node: \"" + name + "\", recompute: none}\n";
        }
    }
    return text;
}

}  // namespace parasight::testing
