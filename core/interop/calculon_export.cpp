#include "interop/calculon_export.h"

#include "collective/phase_cost.h"
#include "interop/calculon_files.h"
#include "interop/calculon_import.h"
#include "interop/reading_back.h"
#include "topology/parallel_layout.h"
#include "units/quantity.h"

#include <array>

namespace parasight {
namespace {

using units::format_number;

constexpr double bytes_per_GiB = 1073741824.0;

std::string_view datatype_of(Dtype dtype) {
    switch (dtype) {
    case Dtype::fp16: return "float16";
    case Dtype::bf16: return "bfloat16";
    case Dtype::fp32: return "float32";
    case Dtype::fp8: return "float8";
    case Dtype::tf32: return {};
    }
    return {};
}

std::string_view recompute_of(Recompute recompute) {
    switch (recompute) {
    case Recompute::none: return "none";
    case Recompute::selective: return "attn_only";
    case Recompute::full: return "full";
    case Recompute::selective_op: return {};
    }
    return {};
}

// What one processor's all-reduce over the whole dimension waits besides its data, in ParaSight's terms: its steps
// of hops and software latency.
double all_reduce_latency_s(const Dimension& dimension, CollectiveAlgorithm algorithm) {
    const int n = dimension.size;
    int steps = 2 * (n - 1);
    int hops = hops_between(dimension.kind, n, 1);
    if (algorithm == CollectiveAlgorithm::direct) {
        steps = 2;
        hops = hops_between(dimension.kind, n, n / 2);
    } else if (algorithm == CollectiveAlgorithm::in_switch) {
        steps = 2;
        hops = 2;
    }
    return steps * (hops * dimension.latency_s + dimension.step_latency_s);
}

class CalculonFiles {
public:
    explicit CalculonFiles(const Scenario& scenario) : scenario_(scenario) {}

    Expected<CalculonExport> make() {
        check_fit();
        place_networks();
        if (!unfit_.empty()) {
            std::string reasons = "it does not fit Calculon's model:";
            for (const std::string& reason : unfit_) reasons += "\n  - " + reason;
            return Error{reasons};
        }
        result_.model_json = write_calculon_model(model());
        result_.system_json = write_calculon_system(system());
        result_.execution_json = write_calculon_execution(execution());
        return std::move(result_);
    }

private:
    void unfit(std::string reason) { unfit_.push_back(std::move(reason)); }
    void note(std::string sentence) { result_.not_modelled.push_back(std::move(sentence)); }

    void check_fit() {
        const ModelSpec& model = scenario_.model;
        const ParallelismSpec& p = scenario_.parallelism;
        if (model.kind != ModelKind::transformer) unfit("a CNN: Calculon models transformers");
        if (model.decoder_layers > 0) unfit("an encoder-decoder model: Calculon's blocks are one stack");
        if (model.mlp == MlpKind::swiglu) unfit("a SwiGLU MLP of three matrices: Calculon's has two (feedforward)");
        if (model.experts > 1) unfit("experts: Calculon's MLP is dense");
        if (model.parallel_blocks) unfit("parallel attention and MLP blocks: Calculon runs them one after the other");
        if (model.kv_heads != model.heads && model.kv_heads != 1) {
            unfit(std::to_string(model.kv_heads) + " key/value heads: Calculon has multi-head or multi-query (1)");
        }
        if (p.cp > 1 || p.ep > 1) unfit("context or expert parallelism: Calculon has tensor, pipeline and data");
        if (p.zero > 1) unfit("ZeRO stage " + std::to_string(p.zero) + ": Calculon shards the optimizer (ZeRO 1) at most");
        if (p.offload_optimizer != OffloadTarget::none || p.offload_parameters != OffloadTarget::none ||
            p.offload_gradients != OffloadTarget::none) {
            unfit("offloading: this export writes none (Calculon's offload is its own, to mem2)");
        }
        if (p.schedule == Schedule::gpipe || p.schedule == Schedule::zb_h1) {
            unfit("the " + std::string(p.schedule == Schedule::gpipe ? "GPipe" : "ZB-H1") +
                  " schedule: Calculon's pipeline is 1F1B, interleaved or not");
        }
        if (recompute_of(p.recompute).empty()) unfit("selective_op recomputation: Calculon has none, attn_only or full");
        if (datatype_of(scenario_.training.dtype).empty()) unfit("tf32 training: Calculon's datatypes are float8, "
                                                                 "float16, bfloat16 and float32");
        if (!scenario_.cluster.device.peak_flops.contains(scenario_.training.dtype)) {
            unfit("the device has no peak for the training dtype");
        }
        if (!scenario_.strategy_tree.empty() && scenario_.strategy_tree != calculon_stages()) {
            unfit("a strategy tree: Calculon splits blocks evenly, the first num_blocks % pipeline_par processors "
                  "holding one more");
        }
        if (p.tp_overlap != TpOverlap::none) {
            note("tp_overlap: backward — Calculon's tensor_par_overlap overlaps every GEMM's collective or none; none "
                 "is written");
        }
        if (scenario_.training.attention == Attention::fused) {
            note("training.attention: fused — Calculon times attention as its matmuls and softmax, unfused");
        }
        if (!p.overlap_p2p) note("overlap_p2p: false — Calculon has no setting for it");
        if (!scenario_.what_if.empty()) note("the what-if delays, slow devices and degraded links");
        note("the vocabulary and the embedding and output layers: Calculon times only the blocks");
        note("the device's matmul, attention and memory efficiencies by shape: Calculon gets one efficiency for every "
             "matmul size and every transfer (a table of one row)");
    }

    // The stage layer counts Calculon's rounding gives (the first num_blocks % pipeline_par stages one block more),
    // as the importer writes them.
    std::vector<StrategyOverride> calculon_stages() const {
        std::vector<StrategyOverride> stages;
        const int pp = scenario_.parallelism.pp;
        const int more = scenario_.model.layers % pp;
        for (int stage = 0; stage < more; ++stage) {
            StrategyOverride entry;
            entry.node = "stage[" + std::to_string(stage) + "]";
            entry.layers = scenario_.model.layers / pp + 1;
            stages.push_back(entry);
        }
        return stages;
    }

    // Each axis inside one topology dimension, which becomes its network; the dimensions no axis uses are left out.
    void place_networks() {
        const auto layout = ParallelLayout::make(scenario_.topology(), scenario_.parallelism.layout_order());
        if (!layout) {
            unfit(layout.error());
            return;
        }
        const std::array<std::pair<ParallelAxis, std::int64_t*>, 3> axes{
            {{ParallelAxis::tp, &tp_net_}, {ParallelAxis::dp, &dp_net_}, {ParallelAxis::pp, &pp_net_}}};
        std::vector<std::int64_t> network_of(scenario_.cluster.topology.size(), -1);
        for (const auto& [axis, network] : axes) {
            const auto spans = layout->spans(axis);
            if (spans.size() > 1) {
                unfit(std::string(name_of(axis, parallel_axis_names)) + " spans topology dimensions " +
                      std::to_string(spans.front().dimension) + " to " + std::to_string(spans.back().dimension) +
                      ": Calculon puts each parallelism on one network");
                continue;
            }
            if (spans.empty()) continue;  // degree 1: network 0, as Calculon's files write it
            const std::size_t d = spans.front().dimension;
            if (network_of[d] < 0) {
                network_of[d] = static_cast<std::int64_t>(dimensions_.size());
                dimensions_.push_back(d);
            }
            *network = network_of[d];
        }
        if (dimensions_.empty()) dimensions_.push_back(0);  // one processor: a network all the same
        for (std::size_t d = 0; d < scenario_.cluster.topology.size(); ++d) {
            if (network_of[d] < 0 && scenario_.cluster.topology[d].size > 1) {
                note("dimension " + std::to_string(d) + " carries no tensor, pipeline or data parallelism: no network "
                     "is written for it");
            }
        }
    }

    CalculonModel model() const {
        const ModelSpec& spec = scenario_.model;
        CalculonModel model;
        model.hidden = spec.hidden;
        model.feedforward = spec.ffn_hidden;
        model.seq_size = spec.seq_len;
        model.attn_heads = spec.heads;
        model.attn_size = spec.head_dim > 0 ? spec.head_dim : spec.hidden / spec.heads;
        model.num_blocks = spec.layers;
        return model;
    }

    CalculonSystem system() {
        const DeviceSpec& device = scenario_.cluster.device;
        CalculonSystem system;
        for (const auto& [dtype, flops] : device.peak_flops) {
            const std::string datatype(datatype_of(dtype));
            if (datatype.empty()) continue;
            const double tflops = reading_back(flops / 1e12, flops, [](double t) {
                return read_as_written(t, "TFLOP/s", units::Dimension::flop_rate);
            });
            system.matrix_TFLOPS[datatype] = tflops;
            system.matrix_efficiency[datatype] = device.matmul_efficiency;
            system.vector_TFLOPS[datatype] = tflops;
        }
        note("vector: ParaSight has no vector unit's peak (it times element-wise work by the bytes it moves); the "
             "matrix peak is written, which keeps Calculon's element-wise times bound by memory");
        system.memory_GiB = reading_back(device.memory_bytes / bytes_per_GiB, device.memory_bytes,
                                         [](double g) { return read_as_written(g, "GiB", units::Dimension::size); });
        system.memory_GBps = reading_back(device.memory_bandwidth_Bps / 1e9, device.memory_bandwidth_Bps,
                                          [](double g) { return read_as_written(g, "GB/s", units::Dimension::bandwidth); });
        system.memory_efficiency = device.memory_efficiency;
        if (const auto& host = scenario_.cluster.memory_system.host) {
            system.offload_GiB = host->capacity_bytes / bytes_per_GiB;
            system.offload_GBps = host->link_bandwidth_Bps / 1e9;
        } else {
            system.offload_GiB = 0.0;
            system.offload_GBps = 1.0;
            note("mem2: the cluster describes no host memory; an empty offload tier is written (0 GiB)");
        }
        system.processing_mode = "roofline";
        for (const std::size_t d : dimensions_) system.networks.push_back(network(d));
        return system;
    }

    CalculonNetwork network(std::size_t d) {
        const Dimension& dimension = scenario_.cluster.topology[d];
        const std::string which = "dimension " + std::to_string(d);
        CollectiveAlgorithm algorithm = effective_algorithm(dimension);
        if (algorithm == CollectiveAlgorithm::nccl || algorithm == CollectiveAlgorithm::halving_doubling ||
            algorithm == CollectiveAlgorithm::double_binary_tree) {
            note(which + " runs " + std::string(name_of(algorithm, collective_algorithm_names)) +
                 "; Calculon's network is written with the ring's traffic");
            algorithm = CollectiveAlgorithm::ring;
        }
        const bool in_switch = algorithm == CollectiveAlgorithm::in_switch;
        CalculonNetwork network;
        network.bandwidth_GBps = reading_back(dimension.bandwidth_Bps / 1e9, dimension.bandwidth_Bps, [](double g) {
            return read_as_written(g, "GB/s", units::Dimension::bandwidth);
        });
        network.efficiency = dimension.efficiency;
        network.size = dimension.size;
        // The importer makes a switch's all-reduce latency its hops'; every other dimension's is written as its own.
        const double latency_s = all_reduce_latency_s(dimension, algorithm);
        network.latency_s = latency_s;
        if (dimension.kind == DimensionKind::switch_fabric && dimension.step_latency_s == 0.0) {
            network.latency_s = reading_back(latency_s, dimension.latency_s, [&](double l) {
                return calculon_hop_latency_s(l, dimension.size, in_switch);
            });
        } else {
            note(which + " is a " + std::string(name_of(dimension.kind, dimension_kind_names)) +
                 (dimension.step_latency_s > 0.0 ? " with a step latency" : "") +
                 ": Calculon's networks have no shape; its latency is a whole-dimension all-reduce's, " +
                 units::format_readable(latency_s, units::Dimension::time));
        }
        // The traffic as the importer reads it: the ring's, or in-switch reduction's.
        network.all_reduce = in_switch ? CalculonNetworkOp{1.0, 1.0} : CalculonNetworkOp{2.0, -1.0};
        network.reduce_scatter = in_switch ? CalculonNetworkOp{1.0, 0.0} : CalculonNetworkOp{1.0, -1.0};
        network.all_gather = CalculonNetworkOp{1.0, -1.0};
        network.p2p = CalculonNetworkOp{1.0, 0.0};
        network.must_be_filled = true;
        network.processor_usage = 0.0;
        return network;
    }

    CalculonExecution execution() const {
        const ParallelismSpec& p = scenario_.parallelism;
        CalculonExecution execution;
        execution.num_procs = scenario_.device_count();
        execution.tensor_par = p.tp;
        execution.pipeline_par = p.pp;
        execution.data_par = p.dp;
        execution.tensor_par_net = tp_net_;
        execution.pipeline_par_net = pp_net_;
        execution.data_par_net = dp_net_;
        execution.batch_size = scenario_.training.global_batch;
        execution.microbatch_size = scenario_.training.micro_batch;
        execution.datatype = datatype_of(scenario_.training.dtype);
        execution.fused_activation = !scenario_.training.eager_kernels;
        execution.attention_type =
            scenario_.model.kv_heads == 1 && scenario_.model.heads > 1 ? "multiquery" : "multihead";
        execution.activation_recompute = recompute_of(p.recompute);
        execution.pipeline_interleaving = p.schedule == Schedule::interleaved ? p.virtual_stages : 1;
        execution.optimizer_sharding = p.zero == 1 && p.dp > 1;  // Calculon asserts data parallelism for it
        execution.tensor_par_comm_type = p.sequence_parallel ? "rs_ag" : p.pp_scatter_gather ? "p2p_rs_ag" : "ar";
        execution.tensor_par_overlap = "none";
        // ParaSight's sequence parallelism gathers the input again in backward; Calculon asserts no redo with full
        // recomputation, which recomputes the gather anyway.
        execution.seq_par_ag_redo = p.sequence_parallel && p.recompute != Recompute::full;
        execution.data_par_overlap = p.overlap_grad_reduce && p.dp > 1;
        execution.training = true;
        return execution;
    }

    const Scenario& scenario_;
    CalculonExport result_;
    std::vector<std::string> unfit_;
    std::vector<std::size_t> dimensions_;  // the topology dimension of each network
    std::int64_t tp_net_ = 0;
    std::int64_t dp_net_ = 0;
    std::int64_t pp_net_ = 0;
};

}  // namespace

Expected<CalculonExport> export_calculon(const Scenario& scenario) { return CalculonFiles(scenario).make(); }

}  // namespace parasight
