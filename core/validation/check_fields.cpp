// Each value of a Scenario against scenario/scenario_limits.h, as the YAML readers check them while reading, so that
// a scenario built in memory meets the same rules as one read from a file.
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "model/cnn_layers.h"
#include "presets/preset_library.h"
#include "strategy/node_path.h"
#include "validation/checks.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace parasight {
namespace {

void preset(ProblemList& problems, const std::string& path, const std::string& id, PresetKind kind) {
    if (id.empty() || find_preset(kind, id) != nullptr) return;
    problems.add(path,
                 in_quotes(id) + " is not a bundled " + std::string(name_of(kind, preset_kind_names)) + " preset");
}

void check_cnn(const ModelSpec& model, ProblemList& problems) {
    problems.integer("model.input.channels", model.input.channels, limits::input_extent);
    problems.integer("model.input.height", model.input.height, limits::input_extent);
    problems.integer("model.input.width", model.input.width, limits::input_extent);
    if (model.cnn_layers.empty()) {
        problems.add("model.layers", "model.layers must be a non-empty list of layers");
        return;
    }
    std::int64_t expanded = 0;
    const std::size_t before = problems.count();
    for (std::size_t i = 0; i < model.cnn_layers.size(); ++i) {
        const CnnBlock& block = model.cnn_layers[i];
        const std::string block_path = "model.layers[" + std::to_string(i) + "]";
        problems.integer(block_path + ".repeat", block.repeat, limits::block_repeat);
        known(problems, block_path + ".shortcut", block.shortcut, shortcut_names);
        if (block.layers.empty()) problems.add(block_path + ".layers", block_path + ".layers must be a non-empty list of layers");
        expanded += static_cast<std::int64_t>(block.layers.size()) * std::clamp(block.repeat, 1, 10'000);
        for (std::size_t j = 0; j < block.layers.size(); ++j) {
            const CnnLayer& layer = block.layers[j];
            const std::string path = block_path + ".layers[" + std::to_string(j) + "]";
            known(problems, path + ".type", layer.type, cnn_layer_type_names);
            if (layer.type == CnnLayerType::fc) {
                problems.integer(path + ".outputs", layer.outputs, limits::fc_outputs);
                continue;
            }
            if (layer.type == CnnLayerType::conv) problems.integer(path + ".filters", layer.filters, limits::filters);
            if (layer.type == CnnLayerType::pool) known(problems, path + ".op", layer.pool_op, pool_op_names);
            problems.integer(path + ".kernel", layer.kernel, limits::kernel);
            problems.integer(path + ".stride", layer.stride, limits::stride);
            problems.integer(path + ".padding", layer.padding, limits::padding);
        }
    }
    if (expanded > limits::max_cnn_layers) {
        problems.add("model.layers", "the model has " + std::to_string(expanded) +
                                         " layers once blocks are repeated; the limit is " +
                                         std::to_string(limits::max_cnn_layers));
    }
    if (problems.count() != before) return;  // shapes only of layers that are each valid
    if (const auto shape = first_cnn_shape_problem(model)) {
        std::string path = "model.layers[" + std::to_string(shape->block) + "]";
        if (shape->layer >= 0) path += ".layers[" + std::to_string(shape->layer) + "]";
        problems.add(path, shape->message);
    }
}

void check_model(const ModelSpec& model, ProblemList& problems) {
    preset(problems, "model.preset", model.preset, PresetKind::model);
    problems.text("model.name", model.name, false);
    known(problems, "model.kind", model.kind, model_kind_names);
    if (model.kind == ModelKind::cnn) {
        check_cnn(model, problems);
        return;
    }
    problems.integer("model.layers", model.layers, limits::layers);
    problems.integer("model.decoder_layers", model.decoder_layers, limits::decoder_layers);
    problems.integer("model.hidden", model.hidden, limits::hidden);
    problems.integer("model.heads", model.heads, limits::heads);
    if (model.kv_heads != 0) problems.integer("model.kv_heads", model.kv_heads, limits::heads);  // 0: = heads
    if (model.head_dim != 0) problems.integer("model.head_dim", model.head_dim, limits::hidden);  // 0: hidden / heads
    if (model.ffn_hidden != 0) problems.integer("model.ffn_hidden", model.ffn_hidden, limits::ffn_hidden);  // 0: 4h
    known(problems, "model.mlp", model.mlp, mlp_kind_names);
    problems.integer("model.seq_len", model.seq_len, limits::seq_len);
    problems.integer("model.vocab", model.vocab, limits::vocab);
    problems.integer("model.experts", model.experts, limits::experts);
    problems.integer("model.experts_per_token", model.experts_per_token, limits::experts);
    problems.number("model.capacity_factor", model.capacity_factor, limits::capacity_factor);
}

void check_training(const TrainingSpec& training, ProblemList& problems) {
    problems.integer("training.global_batch", training.global_batch, limits::global_batch);
    problems.integer("training.micro_batch", training.micro_batch, limits::micro_batch);
    if (training.dataset_samples) {
        problems.integer("training.dataset_samples", *training.dataset_samples, limits::dataset_samples);
        if (*training.dataset_samples < training.global_batch) {
            problems.add("training.dataset_samples", "dataset_samples " + std::to_string(*training.dataset_samples) +
                                                         " is less than global_batch " +
                                                         std::to_string(training.global_batch) +
                                                         ": an epoch holds at least one iteration");
        }
    }
    known(problems, "training.dtype", training.dtype, training_dtype_names);
    known(problems, "training.optimizer", training.optimizer, optimizer_names);
    known(problems, "training.optimizer_implementation", training.optimizer_implementation,
          optimizer_implementation_names);
    known(problems, "training.attention", training.attention, attention_names);
    known(problems, "training.stack", training.stack, training_stack_names);
}

void check_device(const DeviceSpec& device, ProblemList& problems) {
    preset(problems, "cluster.device.preset", device.preset, PresetKind::device);
    problems.text("cluster.device.name", device.name, true);
    if (device.peak_flops.empty()) {
        problems.add("cluster.device.peak", "cluster.device.peak needs at least one dtype: " +
                                                join_alternatives(names_of(dtype_names)));
    }
    for (const auto& [dtype, flops] : device.peak_flops) {
        const std::string path = "cluster.device.peak." + std::string(name_of(dtype, dtype_names));
        known(problems, path, dtype, dtype_names);
        problems.quantity(path, flops, units::Dimension::flop_rate, limits::peak_flops);
    }
    problems.quantity("cluster.device.memory", device.memory_bytes, units::Dimension::size, limits::memory_bytes);
    problems.quantity("cluster.device.memory_bandwidth", device.memory_bandwidth_Bps, units::Dimension::bandwidth,
                      limits::memory_bandwidth);
    problems.number("cluster.device.matmul_efficiency", device.matmul_efficiency, limits::matmul_efficiency);
    problems.number("cluster.device.matmul_half_dim", device.matmul_half_dim, limits::matmul_half_dim);
    if (device.streaming_multiprocessors != 0) {  // 0: none named
        problems.integer("cluster.device.streaming_multiprocessors", device.streaming_multiprocessors,
                         limits::streaming_multiprocessors);
    }
    problems.number("cluster.device.memory_efficiency", device.memory_efficiency, limits::memory_efficiency);
    problems.number("cluster.device.attention_efficiency", device.attention_efficiency, limits::attention_efficiency);
    if (device.fp8_matmul_efficiency != 0.0) {  // 0: matmul_efficiency
        problems.number("cluster.device.fp8_matmul_efficiency", device.fp8_matmul_efficiency,
                        limits::fp8_matmul_efficiency);
    }
    problems.quantity("cluster.device.kernel_launch", device.kernel_launch_s, units::Dimension::time,
                      limits::kernel_launch);
    problems.quantity("cluster.device.graph_kernel_launch", device.graph_kernel_launch_s, units::Dimension::time,
                      limits::kernel_launch);
    problems.quantity("cluster.device.context_memory", device.context_memory_bytes, units::Dimension::size,
                      limits::context_memory);
}

void check_memory_system(const MemorySystemSpec& memory_system, std::int64_t devices, ProblemList& problems) {
    const std::string path = "cluster.memory_system";
    if (memory_system.gpus_per_node != 0) {
        problems.integer(path + ".gpus_per_node", memory_system.gpus_per_node, limits::gpus_per_node);
        if (memory_system.gpus_per_node > 0 && devices % memory_system.gpus_per_node != 0) {
            problems.add(path + ".gpus_per_node",
                         path + ".gpus_per_node " + std::to_string(memory_system.gpus_per_node) +
                             " does not divide the cluster's " + std::to_string(devices) +
                             " devices into whole nodes");
        }
    }
    if (const auto& host = memory_system.host) {
        problems.quantity(path + ".host.capacity", host->capacity_bytes, units::Dimension::size, limits::tier_capacity);
        problems.quantity(path + ".host.link_bandwidth", host->link_bandwidth_Bps, units::Dimension::bandwidth,
                          limits::tier_bandwidth);
        problems.quantity(path + ".host.latency", host->latency_s, units::Dimension::time, limits::tier_latency);
        if (host->memory_bandwidth_Bps != 0.0) {
            problems.quantity(path + ".host.memory_bandwidth", host->memory_bandwidth_Bps, units::Dimension::bandwidth,
                              limits::tier_bandwidth);
        }
    }
    if (const auto& nvme = memory_system.nvme) {
        problems.quantity(path + ".nvme.capacity", nvme->capacity_bytes, units::Dimension::size, limits::tier_capacity);
        problems.quantity(path + ".nvme.bandwidth", nvme->bandwidth_Bps, units::Dimension::bandwidth,
                          limits::tier_bandwidth);
        problems.quantity(path + ".nvme.latency", nvme->latency_s, units::Dimension::time, limits::tier_latency);
    }
    if (const auto& pool = memory_system.pool) {
        const std::string at = path + ".pool.";
        problems.quantity(at + "in_node_bandwidth", pool->in_node_bandwidth_Bps, units::Dimension::bandwidth,
                          limits::tier_bandwidth);
        problems.integer(at + "out_node_switches", pool->out_node_switches, limits::out_node_switches);
        problems.quantity(at + "node_link_bandwidth", pool->node_link_bandwidth_Bps, units::Dimension::bandwidth,
                          limits::tier_bandwidth);
        problems.integer(at + "remote_groups", pool->remote_groups, limits::remote_groups);
        problems.quantity(at + "remote_group_bandwidth", pool->remote_group_bandwidth_Bps,
                          units::Dimension::bandwidth, limits::tier_bandwidth);
        problems.quantity(at + "group_capacity", pool->group_capacity_bytes, units::Dimension::size,
                          limits::tier_capacity);
        problems.quantity(at + "chunk", pool->chunk_bytes, units::Dimension::size, limits::pool_chunk);
        problems.quantity(at + "latency", pool->latency_s, units::Dimension::time, limits::tier_latency);
    }
}

void check_cluster(const ClusterSpec& cluster, ProblemList& problems) {
    preset(problems, "cluster.preset", cluster.preset, PresetKind::cluster);
    problems.text("cluster.name", cluster.name, false);
    check_device(cluster.device, problems);
    const auto& topology = cluster.topology;
    if (topology.empty() || topology.size() > limits::max_topology_dimensions) {
        problems.add("cluster.topology", "cluster.topology must hold 1 to " +
                                             std::to_string(limits::max_topology_dimensions) + " dimensions, not " +
                                             std::to_string(topology.size()));
        return;
    }
    std::int64_t devices = 1;
    for (std::size_t i = 0; i < topology.size(); ++i) {
        const Dimension& dimension = topology[i];
        const std::string path = "cluster.topology[" + std::to_string(i) + "]";
        known(problems, path + ".kind", dimension.kind, dimension_kind_names);
        problems.integer(path + ".size", dimension.size, limits::dimension_size);
        problems.quantity(path + ".bandwidth", dimension.bandwidth_Bps, units::Dimension::bandwidth,
                          limits::link_bandwidth);
        problems.quantity(path + ".latency", dimension.latency_s, units::Dimension::time, limits::link_latency);
        problems.quantity(path + ".step_latency", dimension.step_latency_s, units::Dimension::time,
                          limits::link_latency);
        problems.number(path + ".efficiency", dimension.efficiency, limits::link_efficiency);
        if (dimension.in_switch_efficiency) {
            problems.number(path + ".in_switch_efficiency", *dimension.in_switch_efficiency, limits::link_efficiency);
        }
        if (dimension.algorithm) {
            known(problems, path + ".algorithm", *dimension.algorithm, collective_algorithm_names);
        }
        if (dimension.in_switch_reduction && dimension.kind != DimensionKind::switch_fabric) {
            problems.add(path + ".in_switch_reduction", "only a switch can reduce; a " +
                                                            std::string(to_string(dimension.kind)) +
                                                            " dimension has none");
        }
        if (dimension.algorithm && !algorithm_fits(*dimension.algorithm, dimension.kind)) {
            problems.add(path + ".algorithm", "the " + std::string(to_string(*dimension.algorithm)) +
                                                  " algorithm cannot run on a " +
                                                  std::string(to_string(dimension.kind)) + " dimension");
        }
        devices = std::min<std::int64_t>(devices * std::max<std::int64_t>(dimension.size, 1), limits::max_devices + 1);
    }
    known(problems, "cluster.multi_dimension_collectives", cluster.multi_dimension_collectives,
          multi_dimension_collectives_names);
    if (devices > limits::max_devices) {
        problems.add("cluster.topology", "the topology has more than " + std::to_string(limits::max_devices) +
                                             " devices (the product of the dimension sizes); that is beyond any "
                                             "real cluster");
        return;
    }
    check_memory_system(cluster.memory_system, devices, problems);
}

void check_parallelism(const ParallelismSpec& parallelism, ProblemList& problems) {
    for (const auto& axis : parallel_axis_names) {
        if (parallelism.derived_axis == axis.value) continue;  // derived by check_cross_section
        problems.integer("parallelism." + std::string(axis.name), parallelism.degree(axis.value), limits::degree);
    }
    if (parallelism.derived_axis) known(problems, "parallelism", *parallelism.derived_axis, parallel_axis_names);
    problems.integer("parallelism.zero", parallelism.zero, limits::zero_stage);
    known(problems, "parallelism.offload_optimizer", parallelism.offload_optimizer, offload_target_names);
    known(problems, "parallelism.offload_parameters", parallelism.offload_parameters, offload_target_names);
    known(problems, "parallelism.offload_gradients", parallelism.offload_gradients, offload_target_names);
    known(problems, "parallelism.optimizer_step_on", parallelism.optimizer_step_on, optimizer_step_place_names);
    // Kept, and unused, while nothing is offloaded: switching offload_optimizer to none and back (the form has no
    // field for the tile) must not leave a scenario that cannot run.
    if (parallelism.offload_sub_group) {
        problems.integer("parallelism.offload_sub_group", *parallelism.offload_sub_group, limits::offload_sub_group);
    }
    // ZeRO-3's own settings, given with another stage, would change nothing.
    const auto only_with_zero3 = [&](const char* key, const char* what) {
        if (parallelism.zero == 3) return;
        problems.add(std::string("parallelism.") + key, std::string(key) + " " + what + "; zero is " +
                                                            std::to_string(parallelism.zero) +
                                                            ", which gathers no parameters");
    };
    if (parallelism.zero3_prefetch_layers) {
        problems.integer("parallelism.zero3_prefetch_layers", *parallelism.zero3_prefetch_layers,
                         limits::zero3_prefetch_layers);
        only_with_zero3("zero3_prefetch_layers", "paces ZeRO-3's parameter gathers");
    }
    if (parallelism.zero3_gather) {
        known(problems, "parallelism.zero3_gather", *parallelism.zero3_gather, zero3_gather_names);
        only_with_zero3("zero3_gather", "says what ZeRO-3 gathers at a time");
    }
    if (parallelism.zero1_all_reduce && parallelism.zero != 1) {
        problems.add("parallelism.zero1_all_reduce",
                     "zero1_all_reduce says how ZeRO-1 reduces the gradients; zero is " +
                         std::to_string(parallelism.zero) +
                         (parallelism.zero == 0 ? ", which all-reduces them anyway" : ", which shards them"));
    }
    known(problems, "parallelism.recompute", parallelism.recompute, recompute_names);
    known(problems, "parallelism.tp_overlap", parallelism.tp_overlap, tp_overlap_names);
    known(problems, "parallelism.schedule", parallelism.schedule, schedule_names);
    problems.integer("parallelism.virtual_stages", parallelism.virtual_stages, limits::virtual_stages);
    if (parallelism.micro_batch_group) {
        problems.integer("parallelism.micro_batch_group", *parallelism.micro_batch_group, limits::micro_batch_group);
    }
    if (parallelism.mapping.empty()) {
        problems.add("parallelism.mapping",
                     "parallelism.mapping must be a list of axes, innermost first, e.g. [tp, dp, pp]");
    }
    for (std::size_t i = 0; i < parallelism.mapping.size(); ++i) {
        const ParallelAxis axis = parallelism.mapping[i];
        known(problems, "parallelism.mapping", axis, parallel_axis_names);
        if (std::find(parallelism.mapping.begin(), parallelism.mapping.begin() + static_cast<std::ptrdiff_t>(i),
                      axis) != parallelism.mapping.begin() + static_cast<std::ptrdiff_t>(i)) {
            problems.add("parallelism.mapping",
                         "axis '" + std::string(to_string(axis)) + "' appears twice in parallelism.mapping");
        }
    }
}

void check_strategy_tree(const std::vector<StrategyOverride>& overrides, ProblemList& problems) {
    if (overrides.size() > limits::max_strategy_tree_entries) {
        problems.add("strategy_tree", "strategy_tree has " + std::to_string(overrides.size()) +
                                          " entries; the limit is " +
                                          std::to_string(limits::max_strategy_tree_entries));
        return;
    }
    std::unordered_set<std::string_view> seen;
    seen.reserve(overrides.size());
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        const StrategyOverride& entry = overrides[i];
        const std::string path = "strategy_tree[" + std::to_string(i) + "]";
        const auto node = parse_node_path(entry.node);
        if (!node) {
            problems.add(path + ".node", "unknown strategy-tree node " + in_quotes(entry.node) +
                                             "; nodes are stage[i], layer[j], layer[j].attention, layer[j].mlp "
                                             "and their operations such as layer[j].attention.qkv");
            continue;
        }
        if (!seen.insert(entry.node).second) {
            problems.add(path + ".node", "node " + in_quotes(entry.node) + " is given twice in strategy_tree");
        }
        if (entry.layers) problems.integer(path + ".layers", *entry.layers, limits::stage_layers);
        if (entry.recompute) known(problems, path + ".recompute", *entry.recompute, recompute_names);
        if (entry.micro_batches) {
            problems.integer(path + ".micro_batches", *entry.micro_batches, limits::node_micro_batches);
        }
        if (entry.max_ongoing_micro_batches) {
            problems.integer(path + ".max_ongoing_micro_batches", *entry.max_ongoing_micro_batches,
                             limits::node_micro_batches);
        }
        if (node->kind != StrategyNodeKind::stage &&
            (entry.layers || entry.micro_batches || entry.max_ongoing_micro_batches)) {
            problems.add(path, "layers, micro_batches and max_ongoing_micro_batches apply to pipeline stages; node " +
                                   in_quotes(entry.node) + " takes only recompute");
        }
    }
}

void check_simulation(const SimulationSpec& simulation, ProblemList& problems) {
    problems.number("simulation.overlap_slowdown", simulation.overlap_slowdown, limits::overlap_slowdown);
    problems.integer("simulation.collective_chunks", simulation.collective_chunks, limits::collective_chunks);
    problems.quantity("simulation.gradient_bucket", simulation.gradient_bucket_bytes, units::Dimension::size,
                      limits::gradient_bucket);
    problems.text("simulation.measured_operations", simulation.measured_operations, false);
    for (const auto& [key, time_s] : simulation.measured_times_s) {
        if (!std::isfinite(time_s) || time_s < 0.0) {
            problems.add("simulation.measured_operations",
                         "the measured time of " + in_quotes(key) + " must be a finite time of 0 s or more");
        }
    }
}

}  // namespace

void check_fields(const Scenario& scenario, ProblemList& problems) {
    if (scenario.schema != current_schema) {
        problems.add("schema", "schema " + std::to_string(scenario.schema) + " is not one this ParaSight reads; write "
                               "'schema: " + std::to_string(current_schema) + "'");
    }
    problems.text("name", scenario.name, false);
    check_model(scenario.model, problems);
    check_training(scenario.training, problems);
    check_cluster(scenario.cluster, problems);
    check_parallelism(scenario.parallelism, problems);
    check_strategy_tree(scenario.strategy_tree, problems);
    check_simulation(scenario.simulation, problems);
    check_what_if_fields(scenario.what_if, problems);
}

}  // namespace parasight
