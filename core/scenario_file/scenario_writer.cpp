#include "scenario_file/scenario_writer.h"

#include "common/index_range_text.h"
#include "scenario/training_stack.h"
#include "scenario_file/preset_specs.h"
#include "units/quantity.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <mutex>
#include <optional>

// Numbers reach the emitter as text made here (std::to_string, units::format_number, units::format_quantity): it
// would print a number through a stream in the global C++ locale, which may write 50257 as "50.257".

namespace parasight {

const std::array<std::string_view, 30> paths_written_only_when_set{
    "model.decoder_layers",
    "model.dropout",
    "model.causal_attention",
    "model.parallel_blocks",
    "model.kv_heads",
    "model.head_dim",
    "model.ffn_hidden",
    "model.capacity_factor",
    "training.dataset_samples",
    "training.optimizer_implementation",
    "training.stack",
    "training.fp32_gradients",
    "training.eager_kernels",
    "cluster.device.streaming_multiprocessors",
    "cluster.device.fp8_matmul_efficiency",
    "cluster.topology[].algorithm",
    "cluster.topology[].in_switch_efficiency",
    "cluster.topology[].in_switch_reduction",
    "cluster.memory_system.gpus_per_node",
    "cluster.memory_system.host.memory_bandwidth",
    "parallelism.zero3_prefetch_layers",
    "parallelism.zero3_gather",
    "parallelism.zero1_all_reduce",
    "parallelism.p2p_rendezvous",
    "parallelism.offload_optimizer",
    "parallelism.offload_parameters",
    "parallelism.offload_gradients",
    "parallelism.optimizer_step_on",
    "parallelism.offload_sub_group",
    "parallelism.micro_batch_group"};
namespace {

void write_quantity(YAML::Emitter& out, const char* key, double value, units::Dimension dimension) {
    out << YAML::Key << key << YAML::Value << units::format_quantity(value, dimension);
}

void write_cnn_layer(YAML::Emitter& out, const CnnLayer& layer) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value << std::string(name_of(layer.type, cnn_layer_type_names));
    switch (layer.type) {
    case CnnLayerType::conv:
        out << YAML::Key << "filters" << YAML::Value << std::to_string(layer.filters);
        out << YAML::Key << "kernel" << YAML::Value << std::to_string(layer.kernel);
        out << YAML::Key << "stride" << YAML::Value << std::to_string(layer.stride);
        out << YAML::Key << "padding" << YAML::Value << std::to_string(layer.padding);
        break;
    case CnnLayerType::pool:
        out << YAML::Key << "op" << YAML::Value << std::string(name_of(layer.pool_op, pool_op_names));
        out << YAML::Key << "kernel" << YAML::Value << std::to_string(layer.kernel);
        out << YAML::Key << "stride" << YAML::Value << std::to_string(layer.stride);
        out << YAML::Key << "padding" << YAML::Value << std::to_string(layer.padding);
        break;
    case CnnLayerType::fc: out << YAML::Key << "outputs" << YAML::Value << std::to_string(layer.outputs); break;
    }
    out << YAML::EndMap;
}

void write_model(YAML::Emitter& out, const ModelSpec& model) {
    out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
    if (!model.preset.empty()) out << YAML::Key << "preset" << YAML::Value << model.preset;
    if (!model.name.empty()) out << YAML::Key << "name" << YAML::Value << model.name;
    out << YAML::Key << "kind" << YAML::Value << std::string(name_of(model.kind, model_kind_names));
    if (model.kind == ModelKind::transformer) {
        out << YAML::Key << "layers" << YAML::Value << std::to_string(model.layers);
        if (model.decoder_layers > 0) {
            out << YAML::Key << "decoder_layers" << YAML::Value << std::to_string(model.decoder_layers);
        }
        out << YAML::Key << "hidden" << YAML::Value << std::to_string(model.hidden);
        out << YAML::Key << "heads" << YAML::Value << std::to_string(model.heads);
        // 0 (not yet completed by validate()) means "from the model", as when the key is left out.
        if (model.kv_heads > 0) out << YAML::Key << "kv_heads" << YAML::Value << std::to_string(model.kv_heads);
        if (model.head_dim > 0) out << YAML::Key << "head_dim" << YAML::Value << std::to_string(model.head_dim);
        if (model.ffn_hidden > 0) {
            out << YAML::Key << "ffn_hidden" << YAML::Value << std::to_string(model.ffn_hidden);
        }
        out << YAML::Key << "mlp" << YAML::Value << std::string(name_of(model.mlp, mlp_kind_names));
        out << YAML::Key << "seq_len" << YAML::Value << std::to_string(model.seq_len);
        out << YAML::Key << "vocab" << YAML::Value << std::to_string(model.vocab);
        out << YAML::Key << "tie_embeddings" << YAML::Value << YAML::TrueFalseBool << model.tie_embeddings;
        if (!model.dropout) out << YAML::Key << "dropout" << YAML::Value << YAML::TrueFalseBool << model.dropout;
        if (!model.causal_attention) {
            out << YAML::Key << "causal_attention" << YAML::Value << YAML::TrueFalseBool << model.causal_attention;
        }
        if (model.parallel_blocks) {
            out << YAML::Key << "parallel_blocks" << YAML::Value << YAML::TrueFalseBool << model.parallel_blocks;
        }
        out << YAML::Key << "experts" << YAML::Value << std::to_string(model.experts);
        out << YAML::Key << "experts_per_token" << YAML::Value << std::to_string(model.experts_per_token);
        if (model.experts > 1) {
            out << YAML::Key << "capacity_factor" << YAML::Value << units::format_number(model.capacity_factor);
        }
    } else {
        out << YAML::Key << "input" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "channels" << YAML::Value << std::to_string(model.input.channels);
        out << YAML::Key << "height" << YAML::Value << std::to_string(model.input.height);
        out << YAML::Key << "width" << YAML::Value << std::to_string(model.input.width);
        out << YAML::EndMap;
        out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
        for (const CnnBlock& block : model.cnn_layers) {
            if (block.repeat == 1 && block.shortcut == Shortcut::none && block.layers.size() == 1) {
                write_cnn_layer(out, block.layers.front());
                continue;
            }
            out << YAML::BeginMap;
            out << YAML::Key << "repeat" << YAML::Value << std::to_string(block.repeat);
            out << YAML::Key << "shortcut" << YAML::Value << std::string(name_of(block.shortcut, shortcut_names));
            out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
            for (const CnnLayer& layer : block.layers) write_cnn_layer(out, layer);
            out << YAML::EndSeq << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

void write_training(YAML::Emitter& out, const Scenario& scenario) {
    const TrainingSpec& training = scenario.training;
    out << YAML::Key << "training" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "global_batch" << YAML::Value << std::to_string(training.global_batch);
    out << YAML::Key << "micro_batch" << YAML::Value << std::to_string(training.micro_batch);
    if (training.dataset_samples) {
        out << YAML::Key << "dataset_samples" << YAML::Value << std::to_string(*training.dataset_samples);
    }
    out << YAML::Key << "dtype" << YAML::Value << std::string(name_of(training.dtype, dtype_names));
    out << YAML::Key << "optimizer" << YAML::Value << std::string(name_of(training.optimizer, optimizer_names));
    if (training.optimizer_implementation != OptimizerImplementation::fused) {
        out << YAML::Key << "optimizer_implementation" << YAML::Value
            << std::string(name_of(training.optimizer_implementation, optimizer_implementation_names));
    }
    if (training.stack != TrainingStack::none) {
        out << YAML::Key << "stack" << YAML::Value << std::string(name_of(training.stack, training_stack_names));
    }
    if (differs_from_stack(scenario, "training.attention")) {
        out << YAML::Key << "attention" << YAML::Value << std::string(name_of(training.attention, attention_names));
    }
    if (differs_from_stack(scenario, "training.fp32_gradients")) {
        out << YAML::Key << "fp32_gradients" << YAML::Value << YAML::TrueFalseBool << training.fp32_gradients;
    }
    if (differs_from_stack(scenario, "training.eager_kernels")) {
        out << YAML::Key << "eager_kernels" << YAML::Value << YAML::TrueFalseBool << training.eager_kernels;
    }
    if (training.cuda_graphs) out << YAML::Key << "cuda_graphs" << YAML::Value << YAML::TrueFalseBool << true;
    out << YAML::EndMap;
}

void write_memory_system(YAML::Emitter& out, const MemorySystemSpec& memory_system) {
    out << YAML::Key << "memory_system" << YAML::Value << YAML::BeginMap;
    if (memory_system.gpus_per_node != 0) {
        out << YAML::Key << "gpus_per_node" << YAML::Value << std::to_string(memory_system.gpus_per_node);
    }
    if (const auto& host = memory_system.host) {
        out << YAML::Key << "host" << YAML::Value << YAML::Flow << YAML::BeginMap;
        write_quantity(out, "capacity", host->capacity_bytes, units::Dimension::size);
        write_quantity(out, "link_bandwidth", host->link_bandwidth_Bps, units::Dimension::bandwidth);
        write_quantity(out, "latency", host->latency_s, units::Dimension::time);
        if (host->memory_bandwidth_Bps > 0.0) {
            write_quantity(out, "memory_bandwidth", host->memory_bandwidth_Bps, units::Dimension::bandwidth);
        }
        out << YAML::EndMap;
    }
    if (const auto& nvme = memory_system.nvme) {
        out << YAML::Key << "nvme" << YAML::Value << YAML::Flow << YAML::BeginMap;
        write_quantity(out, "capacity", nvme->capacity_bytes, units::Dimension::size);
        write_quantity(out, "bandwidth", nvme->bandwidth_Bps, units::Dimension::bandwidth);
        write_quantity(out, "latency", nvme->latency_s, units::Dimension::time);
        out << YAML::EndMap;
    }
    if (const auto& pool = memory_system.pool) {
        out << YAML::Key << "pool" << YAML::Value << YAML::BeginMap;
        write_quantity(out, "in_node_bandwidth", pool->in_node_bandwidth_Bps, units::Dimension::bandwidth);
        out << YAML::Key << "out_node_switches" << YAML::Value << std::to_string(pool->out_node_switches);
        write_quantity(out, "node_link_bandwidth", pool->node_link_bandwidth_Bps, units::Dimension::bandwidth);
        out << YAML::Key << "remote_groups" << YAML::Value << std::to_string(pool->remote_groups);
        write_quantity(out, "remote_group_bandwidth", pool->remote_group_bandwidth_Bps, units::Dimension::bandwidth);
        write_quantity(out, "group_capacity", pool->group_capacity_bytes, units::Dimension::size);
        write_quantity(out, "chunk", pool->chunk_bytes, units::Dimension::size);
        write_quantity(out, "latency", pool->latency_s, units::Dimension::time);
        out << YAML::Key << "in_switch_collectives" << YAML::Value << YAML::TrueFalseBool
            << pool->in_switch_collectives;
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

// A bundled device preset as the reader makes it, or null when none has this id: each read on first use, by
// whichever thread writes it first (reading all of them cost a sweep more than its first point).
const DeviceSpec* bundled_device(const std::string& id) {
    static std::mutex mutex;
    static std::map<std::string, std::optional<DeviceSpec>, std::less<>> read;  // a map: its entries never move
    const std::lock_guard lock(mutex);
    auto found = read.find(id);
    if (found == read.end()) found = read.emplace(id, device_preset_spec(id)).first;
    return found->second ? &*found->second : nullptr;
}

// A device figure whose 0 means "none" (no launch floor, no runtime memory) is written when it is set, and as 0 when
// the device's preset sets it — so that clearing it is not read back as the preset's value.
void write_optional_quantity(YAML::Emitter& out, const char* key, double value, double preset_value,
                             units::Dimension dimension) {
    if (value > 0.0 || preset_value > 0.0) write_quantity(out, key, value, dimension);
}

void write_cluster(YAML::Emitter& out, const ClusterSpec& cluster) {
    out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
    if (!cluster.preset.empty()) out << YAML::Key << "preset" << YAML::Value << cluster.preset;
    if (!cluster.name.empty()) out << YAML::Key << "name" << YAML::Value << cluster.name;
    const DeviceSpec& device = cluster.device;
    out << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
    if (!device.preset.empty()) out << YAML::Key << "preset" << YAML::Value << device.preset;
    out << YAML::Key << "name" << YAML::Value << device.name;
    out << YAML::Key << "peak" << YAML::Value << YAML::BeginMap;
    for (const auto& [dtype, flops] : device.peak_flops) {
        write_quantity(out, std::string(name_of(dtype, dtype_names)).c_str(), flops, units::Dimension::flop_rate);
    }
    out << YAML::EndMap;
    write_quantity(out, "memory", device.memory_bytes, units::Dimension::size);
    write_quantity(out, "memory_bandwidth", device.memory_bandwidth_Bps, units::Dimension::bandwidth);
    out << YAML::Key << "matmul_efficiency" << YAML::Value << units::format_number(device.matmul_efficiency);
    if (device.fp8_matmul_efficiency > 0.0) {
        out << YAML::Key << "fp8_matmul_efficiency" << YAML::Value
            << units::format_number(device.fp8_matmul_efficiency);
    }
    out << YAML::Key << "matmul_half_dim" << YAML::Value << units::format_number(device.matmul_half_dim);
    if (device.streaming_multiprocessors > 0) {
        out << YAML::Key << "streaming_multiprocessors" << YAML::Value
            << std::to_string(device.streaming_multiprocessors);
    }
    out << YAML::Key << "memory_efficiency" << YAML::Value << units::format_number(device.memory_efficiency);
    out << YAML::Key << "attention_efficiency" << YAML::Value << units::format_number(device.attention_efficiency);
    const DeviceSpec* preset = device.preset.empty() ? nullptr : bundled_device(device.preset);
    write_optional_quantity(out, "kernel_launch", device.kernel_launch_s, preset ? preset->kernel_launch_s : 0.0,
                            units::Dimension::time);
    write_optional_quantity(out, "graph_kernel_launch", device.graph_kernel_launch_s,
                            preset ? preset->graph_kernel_launch_s : 0.0, units::Dimension::time);
    write_optional_quantity(out, "context_memory", device.context_memory_bytes,
                            preset ? preset->context_memory_bytes : 0.0, units::Dimension::size);
    out << YAML::EndMap;
    out << YAML::Key << "topology" << YAML::Value << YAML::BeginSeq;
    for (const Dimension& dimension : cluster.topology) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "kind" << YAML::Value << std::string(to_string(dimension.kind));
        out << YAML::Key << "size" << YAML::Value << std::to_string(dimension.size);
        write_quantity(out, "bandwidth", dimension.bandwidth_Bps, units::Dimension::bandwidth);
        write_quantity(out, "latency", dimension.latency_s, units::Dimension::time);
        write_quantity(out, "step_latency", dimension.step_latency_s, units::Dimension::time);
        out << YAML::Key << "efficiency" << YAML::Value << units::format_number(dimension.efficiency);
        if (dimension.in_switch_efficiency) {
            out << YAML::Key << "in_switch_efficiency" << YAML::Value
                << units::format_number(*dimension.in_switch_efficiency);
        }
        if (dimension.in_switch_reduction) out << YAML::Key << "in_switch_reduction" << YAML::Value << true;
        if (dimension.algorithm) {
            out << YAML::Key << "algorithm" << YAML::Value << std::string(to_string(*dimension.algorithm));
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "multi_dimension_collectives" << YAML::Value
        << std::string(to_string(cluster.multi_dimension_collectives));
    if (!cluster.memory_system.empty()) write_memory_system(out, cluster.memory_system);
    out << YAML::EndMap;
}

void write_parallelism(YAML::Emitter& out, const Scenario& scenario) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    out << YAML::Key << "parallelism" << YAML::Value << YAML::BeginMap;
    for (const auto& axis : parallel_axis_names) {
        out << YAML::Key << std::string(axis.name) << YAML::Value;
        if (parallelism.derived_axis == axis.value) {
            out << "auto";
        } else {
            out << std::to_string(parallelism.degree(axis.value));
        }
    }
    out << YAML::Key << "zero" << YAML::Value << std::to_string(parallelism.zero);
    if (parallelism.zero3_prefetch_layers) {
        const int layers = *parallelism.zero3_prefetch_layers;
        out << YAML::Key << "zero3_prefetch_layers" << YAML::Value << std::to_string(layers);
    }
    if (parallelism.zero3_gather) {
        out << YAML::Key << "zero3_gather" << YAML::Value
            << std::string(name_of(*parallelism.zero3_gather, zero3_gather_names));
    }
    if (parallelism.zero1_all_reduce) {
        out << YAML::Key << "zero1_all_reduce" << YAML::Value << YAML::TrueFalseBool << *parallelism.zero1_all_reduce;
    }
    out << YAML::Key << "sequence_parallel" << YAML::Value << YAML::TrueFalseBool << parallelism.sequence_parallel;
    if (differs_from_stack(scenario, "parallelism.overlap_grad_reduce")) {
        out << YAML::Key << "overlap_grad_reduce" << YAML::Value << YAML::TrueFalseBool
            << parallelism.overlap_grad_reduce;
    }
    if (differs_from_stack(scenario, "parallelism.overlap_p2p")) {
        out << YAML::Key << "overlap_p2p" << YAML::Value << YAML::TrueFalseBool << parallelism.overlap_p2p;
    }
    if (differs_from_stack(scenario, "parallelism.p2p_rendezvous")) {
        out << YAML::Key << "p2p_rendezvous" << YAML::Value << YAML::TrueFalseBool << parallelism.p2p_rendezvous;
    }
    if (parallelism.offload_optimizer != OffloadTarget::none) {
        out << YAML::Key << "offload_optimizer" << YAML::Value
            << std::string(name_of(parallelism.offload_optimizer, offload_target_names));
    }
    if (parallelism.offload_parameters != OffloadTarget::none) {
        out << YAML::Key << "offload_parameters" << YAML::Value
            << std::string(name_of(parallelism.offload_parameters, offload_target_names));
    }
    if (parallelism.offload_gradients != OffloadTarget::none) {
        out << YAML::Key << "offload_gradients" << YAML::Value
            << std::string(name_of(parallelism.offload_gradients, offload_target_names));
    }
    if (parallelism.optimizer_step_on != OptimizerStepPlace::device) {
        out << YAML::Key << "optimizer_step_on" << YAML::Value
            << std::string(name_of(parallelism.optimizer_step_on, optimizer_step_place_names));
    }
    if (parallelism.offload_sub_group) {
        out << YAML::Key << "offload_sub_group" << YAML::Value << std::to_string(*parallelism.offload_sub_group);
    }
    out << YAML::Key << "pp_scatter_gather" << YAML::Value << YAML::TrueFalseBool << parallelism.pp_scatter_gather;
    if (differs_from_stack(scenario, "parallelism.tp_overlap")) {
        out << YAML::Key << "tp_overlap" << YAML::Value
            << std::string(name_of(parallelism.tp_overlap, tp_overlap_names));
    }
    out << YAML::Key << "recompute" << YAML::Value << std::string(name_of(parallelism.recompute, recompute_names));
    out << YAML::Key << "schedule" << YAML::Value << std::string(name_of(parallelism.schedule, schedule_names));
    out << YAML::Key << "virtual_stages" << YAML::Value << std::to_string(parallelism.virtual_stages);
    if (parallelism.micro_batch_group) {
        out << YAML::Key << "micro_batch_group" << YAML::Value << std::to_string(*parallelism.micro_batch_group);
    }
    out << YAML::Key << "mapping" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const ParallelAxis axis : parallelism.mapping) out << std::string(to_string(axis));
    out << YAML::EndSeq << YAML::EndMap;
}

void write_strategy_tree(YAML::Emitter& out, const std::vector<StrategyOverride>& overrides) {
    out << YAML::Key << "strategy_tree" << YAML::Value << YAML::BeginSeq;
    for (const StrategyOverride& entry : overrides) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "node" << YAML::Value << YAML::DoubleQuoted << entry.node;
        if (entry.layers) out << YAML::Key << "layers" << YAML::Value << std::to_string(*entry.layers);
        if (entry.recompute) {
            out << YAML::Key << "recompute" << YAML::Value << std::string(name_of(*entry.recompute, recompute_names));
        }
        if (entry.micro_batches) {
            out << YAML::Key << "micro_batches" << YAML::Value << std::to_string(*entry.micro_batches);
        }
        if (entry.max_ongoing_micro_batches) {
            out << YAML::Key << "max_ongoing_micro_batches" << YAML::Value
                << std::to_string(*entry.max_ongoing_micro_batches);
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void write_simulation(YAML::Emitter& out, const SimulationSpec& simulation) {
    out << YAML::Key << "simulation" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "overlap_slowdown" << YAML::Value << units::format_number(simulation.overlap_slowdown);
    out << YAML::Key << "bandwidth_sharing" << YAML::Value << YAML::TrueFalseBool << simulation.bandwidth_sharing;
    out << YAML::Key << "collective_chunks" << YAML::Value << std::to_string(simulation.collective_chunks);
    write_quantity(out, "gradient_bucket", simulation.gradient_bucket_bytes, units::Dimension::size);
    if (!simulation.measured_operations.empty()) {
        out << YAML::Key << "measured_operations" << YAML::Value << simulation.measured_operations;
    }
    // Written only when off, so that scenarios written before it existed keep their text (and content hash).
    if (!simulation.steady_state) out << YAML::Key << "steady_state" << YAML::Value << YAML::TrueFalseBool << false;
    out << YAML::EndMap;
}

// Runs of consecutive NPUs written as ranges: [0, 8..15].
void write_npus(YAML::Emitter& out, const std::vector<std::int64_t>& npus) {
    out << YAML::Key << "npus" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& [first, last] : index_runs(npus)) out << index_range_text(first, last);
    out << YAML::EndSeq;
}

void write_what_if(YAML::Emitter& out, const WhatIfSpec& what_if) {
    out << YAML::Key << "what_if" << YAML::Value << YAML::BeginMap;
    if (!what_if.collective_delays.empty()) {
        out << YAML::Key << "collective_delays" << YAML::Value << YAML::BeginSeq;
        for (const CollectiveDelay& delay : what_if.collective_delays) {
            out << YAML::Flow << YAML::BeginMap;
            if (delay.group) out << YAML::Key << "group" << YAML::Value << std::string(to_string(*delay.group));
            if (delay.operation) {
                out << YAML::Key << "operation" << YAML::Value
                    << std::string(name_of(*delay.operation, comm_operation_names));
            }
            if (delay.layers) {
                out << YAML::Key << "layers" << YAML::Value
                    << index_range_text(delay.layers->first, delay.layers->last);
            }
            write_quantity(out, "delay", delay.delay_s, units::Dimension::time);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!what_if.slow_devices.empty()) {
        out << YAML::Key << "slow_devices" << YAML::Value << YAML::BeginSeq;
        for (const SlowDevices& slow : what_if.slow_devices) {
            out << YAML::Flow << YAML::BeginMap;
            write_npus(out, slow.npus);
            out << YAML::Key << "compute_time_factor" << YAML::Value << units::format_number(slow.compute_time_factor);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!what_if.degraded_links.empty()) {
        out << YAML::Key << "degraded_links" << YAML::Value << YAML::BeginSeq;
        for (const DegradedLinks& links : what_if.degraded_links) {
            out << YAML::Flow << YAML::BeginMap;
            if (links.dimension) out << YAML::Key << "dimension" << YAML::Value << std::to_string(*links.dimension);
            if (!links.npus.empty()) write_npus(out, links.npus);
            out << YAML::Key << "bandwidth_factor" << YAML::Value << units::format_number(links.bandwidth_factor);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

}  // namespace

std::string write_scenario_yaml(const Scenario& scenario) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "schema" << YAML::Value << std::to_string(scenario.schema);
    if (!scenario.name.empty()) out << YAML::Key << "name" << YAML::Value << scenario.name;
    write_model(out, scenario.model);
    write_training(out, scenario);
    write_cluster(out, scenario.cluster);
    write_parallelism(out, scenario);
    write_strategy_tree(out, scenario.strategy_tree);
    write_simulation(out, scenario.simulation);
    if (!scenario.what_if.empty()) write_what_if(out, scenario.what_if);
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace parasight
