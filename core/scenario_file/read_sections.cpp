// training, parallelism, strategy_tree and simulation sections.
#include "common/message_text.h"
#include "scenario_file/scenario_readers.h"
#include "strategy/node_path.h"

#include "device/measured_operations.h"
#include "io/bounded_file.h"

#include <algorithm>
#include <filesystem>
#include <unordered_set>

namespace parasight {
namespace {

void record_keys(const MapReader& reader, LocationIndex& locations, const std::vector<std::string_view>& keys) {
    for (const auto key : keys) {
        if (reader.has(key)) locations.record(reader.path(key), reader.key_location(key));
    }
}

}  // namespace

void read_training(const YAML::Node& node, YamlSource& source, LocationIndex& locations, TrainingSpec& training) {
    const std::vector<std::string_view> keys{"global_batch",   "micro_batch",   "dataset_samples",
                                             "dtype",          "optimizer",     "optimizer_implementation",
                                             "attention",      "fp32_gradients", "eager_kernels",
                                             "cuda_graphs",    "stack"};
    MapReader reader(node, source, "training", keys);
    if (!reader.is_map()) return;
    record_keys(reader, locations, keys);
    if (reader.require("global_batch")) reader.read_integer("global_batch", training.global_batch, limits::global_batch);
    reader.read_integer("micro_batch", training.micro_batch, limits::micro_batch);
    std::int64_t samples = 0;
    if (reader.read_integer("dataset_samples", samples, limits::dataset_samples)) training.dataset_samples = samples;
    reader.read_enum("dtype", training.dtype, training_dtype_names, dtype_suggestion_aliases);
    reader.read_enum("optimizer", training.optimizer, optimizer_names);
    reader.read_enum("optimizer_implementation", training.optimizer_implementation, optimizer_implementation_names);
    reader.read_enum("attention", training.attention, attention_names);
    reader.read_bool("fp32_gradients", training.fp32_gradients);
    reader.read_bool("eager_kernels", training.eager_kernels);
    reader.read_bool("cuda_graphs", training.cuda_graphs);
    reader.read_enum("stack", training.stack, training_stack_names);
}

void read_parallelism(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                      ParallelismSpec& parallelism) {
    const std::vector<std::string_view> keys{"tp",
                                             "cp",
                                             "ep",
                                             "dp",
                                             "pp",
                                             "zero",
                                             "zero3_prefetch_layers",
                                             "zero3_gather",
                                             "zero1_all_reduce",
                                             "sequence_parallel",
                                             "overlap_grad_reduce",
                                             "overlap_p2p",
                                             "p2p_rendezvous",
                                             "offload_optimizer", "offload_parameters", "offload_gradients",
                                             "optimizer_step_on",
                                             "offload_sub_group",
                                             "pp_scatter_gather",
                                             "tp_overlap",
                                             "recompute",
                                             "schedule",
                                             "virtual_stages",
                                             "micro_batch_group",
                                             "mapping"};
    MapReader reader(node, source, "parallelism", keys);
    if (!reader.is_map()) return;
    record_keys(reader, locations, keys);
    for (const auto& axis : parallel_axis_names) {
        if (!reader.has(axis.name)) continue;
        const YAML::Node value = reader.value(axis.name);
        if (value.IsScalar() && value.Scalar() == "auto") {
            if (parallelism.derived_axis) {
                source.error(reader.value_location(axis.name),
                             "only one parallel degree may be 'auto', but " +
                                 std::string(to_string(*parallelism.derived_axis)) + " already is");
            } else {
                parallelism.derived_axis = axis.value;
            }
            continue;
        }
        int degree = 1;
        if (reader.read_integer(axis.name, degree, limits::degree)) parallelism.set_degree(axis.value, degree);
    }
    reader.read_integer("zero", parallelism.zero, limits::zero_stage);
    int prefetch_layers = 1;
    if (reader.read_integer("zero3_prefetch_layers", prefetch_layers, limits::zero3_prefetch_layers)) {
        parallelism.zero3_prefetch_layers = prefetch_layers;
    }
    Zero3Gather gather = Zero3Gather::layer;
    if (reader.read_enum("zero3_gather", gather, zero3_gather_names)) parallelism.zero3_gather = gather;
    bool zero1_all_reduce = false;
    if (reader.read_bool("zero1_all_reduce", zero1_all_reduce)) parallelism.zero1_all_reduce = zero1_all_reduce;
    reader.read_bool("sequence_parallel", parallelism.sequence_parallel);
    reader.read_bool("overlap_grad_reduce", parallelism.overlap_grad_reduce);
    reader.read_bool("overlap_p2p", parallelism.overlap_p2p);
    reader.read_bool("p2p_rendezvous", parallelism.p2p_rendezvous);
    reader.read_enum("offload_optimizer", parallelism.offload_optimizer, offload_target_names);
    reader.read_enum("offload_parameters", parallelism.offload_parameters, offload_target_names);
    reader.read_enum("offload_gradients", parallelism.offload_gradients, offload_target_names);
    reader.read_enum("optimizer_step_on", parallelism.optimizer_step_on, optimizer_step_place_names);
    std::int64_t sub_group = 0;
    if (reader.read_integer("offload_sub_group", sub_group, limits::offload_sub_group)) {
        parallelism.offload_sub_group = sub_group;
    }
    reader.read_bool("pp_scatter_gather", parallelism.pp_scatter_gather);
    reader.read_enum("tp_overlap", parallelism.tp_overlap, tp_overlap_names);
    reader.read_enum("recompute", parallelism.recompute, recompute_names);
    reader.read_enum("schedule", parallelism.schedule, schedule_names);
    reader.read_integer("virtual_stages", parallelism.virtual_stages, limits::virtual_stages);
    int group = 0;
    if (reader.read_integer("micro_batch_group", group, limits::micro_batch_group)) {
        parallelism.micro_batch_group = group;
    }
    if (reader.has("mapping")) {
        const YAML::Node mapping = reader.value("mapping");
        if (!mapping.IsSequence() || mapping.size() == 0) {
            source.error(reader.value_location("mapping"),
                         "parallelism.mapping must be a list of axes, innermost first, e.g. [tp, dp, pp]");
            return;
        }
        std::vector<ParallelAxis> axes;
        const auto axis_words = names_of(parallel_axis_names);
        for (std::size_t i = 0; i < mapping.size(); ++i) {
            const YAML::Node item = mapping[i];
            const SourceLocation item_at = source.location_at("parallelism.mapping[" + std::to_string(i) + "]", item);
            if (!item.IsScalar()) {
                source.error(item_at,
                             "parallelism.mapping lists axis names, found " + std::string(node_type_noun(item)));
                continue;
            }
            const std::string text = item.Scalar();
            const auto axis = value_of(text, parallel_axis_names);
            if (!axis) {
                source.error(item_at, in_quotes(text) + " is not a parallel axis" +
                                          did_you_mean_suffix(text, axis_words) + "; expected " +
                                          join_alternatives(axis_words));
                continue;
            }
            if (std::find(axes.begin(), axes.end(), *axis) != axes.end()) {
                source.error(item_at, "axis " + in_quotes(text) + " appears twice in parallelism.mapping");
                continue;
            }
            axes.push_back(*axis);
        }
        parallelism.mapping = std::move(axes);
    }
}

void read_strategy_tree(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                        std::vector<StrategyOverride>& overrides) {
    if (node.IsNull()) return;
    if (!node.IsSequence()) {
        source.error(source.location_at("strategy_tree", node),
                     "strategy_tree must be a list of overrides such as {node: \"stage[0]\", layers: 5}, found " +
                         std::string(node_type_noun(node)));
        return;
    }
    if (node.size() > limits::max_strategy_tree_entries) {
        source.error(source.location_at("strategy_tree", node),
                     "strategy_tree has " + count_phrase(static_cast<std::int64_t>(node.size()), "entry", "entries") +
                         "; the limit is " + std::to_string(limits::max_strategy_tree_entries));
        return;
    }
    // Duplicates found by hash: linear in the entries (a 100 000-entry tree is read in a fraction of a second).
    std::unordered_set<std::string> nodes_given;
    for (std::size_t i = 0; i < node.size(); ++i) {
        const std::string path = "strategy_tree[" + std::to_string(i) + "]";
        MapReader reader(node[i], source, path,
                         {"node", "layers", "recompute", "micro_batches", "max_ongoing_micro_batches"});
        if (!reader.is_map()) continue;
        locations.record(path, reader.location());
        StrategyOverride entry;
        entry.location = reader.location();
        if (!reader.require("node") || !reader.read_string("node", entry.node)) continue;
        const ParsedNodePath parsed = parse_node_path_checked(entry.node);
        const auto& node_path = parsed.path;
        if (!node_path && parsed.error == NodePathError::unknown_operation) {
            const LayerBlock block = parsed.block;
            const auto names = operation_names(block);
            source.error(reader.value_location("node"),
                         "unknown operation " + in_quotes(parsed.operation) + " in node " + in_quotes(entry.node) +
                             did_you_mean_suffix(parsed.operation, names) + "; the " +
                             std::string(block_name(block)) + " block's operations are " + join_alternatives(names));
            continue;
        }
        if (!node_path) {
            source.error(reader.value_location("node"), "unknown strategy-tree node " + in_quotes(entry.node) +
                                                            "; nodes are pipeline stages written stage[i], "
                                                            "model layers written layer[j], their blocks "
                                                            "layer[j].attention and layer[j].mlp, and the blocks' "
                                                            "operations such as layer[j].attention.qkv, counting "
                                                            "from 0");
            continue;
        }
        if (!nodes_given.insert(entry.node).second) {
            source.error(reader.value_location("node"),
                         "node " + in_quotes(entry.node) + " is given twice in strategy_tree");
            continue;
        }
        if (node_path->kind != StrategyNodeKind::stage) {
            const char* what = node_path->kind == StrategyNodeKind::layer   ? "a layer"
                               : node_path->kind == StrategyNodeKind::block ? "a block"
                                                                            : "an operation";
            for (const auto key : {"layers", "micro_batches", "max_ongoing_micro_batches"}) {
                if (reader.has(key)) {
                    source.error(reader.key_location(key), "'" + std::string(key) +
                                                               "' applies to pipeline stages, not to " + what +
                                                               "; " + what + " takes only recompute");
                }
            }
        }
        int value = 0;
        if (reader.read_integer("layers", value, limits::stage_layers)) entry.layers = value;
        Recompute recompute = Recompute::none;
        if (reader.read_enum("recompute", recompute, recompute_names)) entry.recompute = recompute;
        if (reader.read_integer("micro_batches", value, limits::node_micro_batches)) entry.micro_batches = value;
        if (reader.read_integer("max_ongoing_micro_batches", value, limits::node_micro_batches)) {
            entry.max_ongoing_micro_batches = value;
        }
        overrides.push_back(std::move(entry));
    }
}

void read_simulation(const YAML::Node& node, YamlSource& source, LocationIndex& locations, SimulationSpec& simulation) {
    const std::vector<std::string_view> keys{"overlap_slowdown", "bandwidth_sharing", "collective_chunks",
                                             "gradient_bucket", "measured_operations", "steady_state"};
    MapReader reader(node, source, "simulation", keys);
    if (!reader.is_map()) return;
    record_keys(reader, locations, keys);
    reader.read_fraction("overlap_slowdown", simulation.overlap_slowdown, limits::overlap_slowdown);
    reader.read_bool("bandwidth_sharing", simulation.bandwidth_sharing);
    reader.read_bool("steady_state", simulation.steady_state);
    reader.read_integer("collective_chunks", simulation.collective_chunks, limits::collective_chunks);
    reader.read_quantity("gradient_bucket", simulation.gradient_bucket_bytes, units::Dimension::size,
                         limits::gradient_bucket);
    if (reader.read_string("measured_operations", simulation.measured_operations)) {
        // Relative to the scenario file, as a user writes it next to the scenario.
        const std::filesystem::path written(simulation.measured_operations);
        if (!written.is_absolute() && source.base_directory().empty()) {
            source.error(reader.value_location("measured_operations"),
                         "the measured operations table " +
                             quoted_path(simulation.measured_operations) +
                             " is a relative path, but this scenario has no folder (it was not read from a file); "
                             "give the table's full path, or save the scenario first");
            return;
        }
        const std::filesystem::path path = written.is_absolute() ? written : source.base_directory() / written;
        const auto text = read_bounded_file(path, max_input_file_bytes, "a measured operations table");
        if (!text) {
            source.error(reader.value_location("measured_operations"),
                         "cannot read the measured operations table " +
                             quoted_path(path.string()) + ": " + text.error());
            return;
        }
        simulation.measured_times_s = parse_measured_operations(text.value(), path.string(), source.diagnostics());
    }
}

}  // namespace parasight
