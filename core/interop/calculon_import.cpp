#include "interop/calculon_import.h"

#include "interop/calculon_files.h"
#include "interop/yaml_text.h"
#include "scenario_file/scenario_loader.h"
#include "units/quantity.h"

#include <filesystem>
#include <span>
#include <string_view>

namespace parasight {
namespace {

using units::format_number;

// Calculon's datatype names and ParaSight's.
std::string_view dtype_of(std::string_view datatype) {
    if (datatype == "float16") return "fp16";
    if (datatype == "bfloat16") return "bf16";
    if (datatype == "float32") return "fp32";
    return "fp8";
}

std::string op_text(const CalculonNetworkOp& op) {
    return "[" + format_number(op.scalar) + ", " + format_number(op.offset) + "]";
}

// scalar × (1 + offset / n) of the data, in words.
std::string share_text(double scalar, double offset) {
    const std::string times = scalar == 1.0 ? "" : format_number(scalar) + " × ";
    if (offset == 0.0) return times + "the data once";
    if (offset == -1.0) return times + "(n − 1)/n of the data";
    if (offset == 1.0) return times + "(n + 1)/n of the data";
    return times + "(1 + " + format_number(offset) + "/n) of the data";
}

bool same_op(const CalculonNetworkOp& op, double scalar, double offset) {
    return op.scalar == scalar && op.offset == offset;
}

double all_reduce_steps(std::int64_t members, bool in_switch) {
    return in_switch ? 2.0 : 2.0 * static_cast<double>(members - 1);
}

std::string hop_latency_text(double operation_latency_s, std::int64_t members, bool in_switch) {
    return format_number(operation_latency_s * 1e9 / (all_reduce_steps(members, in_switch) * 2.0)) + " ns";
}

// One parallel degree on a network: which axis, its degree, its execution key.
struct PlacedAxis {
    std::string_view axis;         // tp, dp, pp
    std::string_view degree_key;   // tensor_par, ...
    std::string_view network_key;  // tensor_par_net, ...
    std::int64_t degree;
    std::int64_t network;
};

class CalculonScenario {
public:
    CalculonScenario(const CalculonSystem& system, const CalculonModel& model, const CalculonExecution& execution,
                     const PeerFile& system_file, const PeerFile& model_file, const PeerFile& execution_file)
        : system_(system), model_(model), execution_(execution), system_file_(system_file), model_file_(model_file),
          execution_file_(execution_file) {}

    Expected<PeerImport, Diagnostics> make() {
        refuse_what_has_no_counterpart();
        place_axes();
        if (!problems_.empty()) return problems_;
        header();
        write_model();
        write_training();
        write_cluster();
        write_parallelism();
        yaml_ += "# Assumptions, where Calculon's model and ParaSight's differ:\n";
        for (const std::string& note : notes_) yaml_ += "#   " + note + "\n";
        LoadResult loaded = load_scenario_text(yaml_, title());
        if (!loaded.ok()) {
            // Nothing the user wrote is at fault where the files read well: the scenario they make is not one.
            Diagnostics made;
            for (Diagnostic diagnostic : loaded.diagnostics) {
                diagnostic.message = "the scenario Calculon's files make: " + diagnostic.message;
                diagnostic.location = SourceLocation{execution_file_.name, 0, 0};
                made.push_back(std::move(diagnostic));
            }
            return made;
        }
        return PeerImport{yaml_, notes_};
    }

private:
    void refuse(std::string_view key, std::string message) {
        const auto at = execution_.written_at.find(key);
        problems_.push_back(Diagnostic{at != execution_.written_at.end() ? at->second : SourceLocation{execution_file_.name, 0, 0},
                                       std::string(key) + ": " + std::move(message), {}});
    }

    void refuse_what_has_no_counterpart() {
        if (!execution_.training) refuse("training", "ParaSight simulates training iterations, not inference");
        for (const std::string_view key : {"weight_offload", "activations_offload", "optimizer_offload"}) {
            const bool on = key == "weight_offload"        ? execution_.weight_offload
                            : key == "activations_offload" ? execution_.activations_offload
                                                           : execution_.optimizer_offload;
            if (on) {
                refuse(key, "Calculon's offload to mem2 is not imported; describe the host memory "
                            "(cluster.memory_system) and set parallelism.offload_* in the scenario instead");
            }
        }
        if (execution_.tensor_par_overlap != "none") {
            refuse("tensor_par_overlap", "'" + execution_.tensor_par_overlap +
                                             "' overlaps every tensor-parallel collective with its GEMM; ParaSight "
                                             "overlaps only backward's (parallelism.tp_overlap: backward)");
        }
        if (system_.matrix_TFLOPS.find(execution_.datatype) == system_.matrix_TFLOPS.end()) {
            refuse("datatype", "the system's matrix unit has no " + execution_.datatype + " peak (" +
                                   system_file_.name + ")");
        }
    }

    // Each degree above 1 on its network; a network's dimension holds the degrees placed on it.
    void place_axes() {
        const PlacedAxis axes[] = {
            {"tp", "tensor_par", "tensor_par_net", execution_.tensor_par, execution_.tensor_par_net},
            {"dp", "data_par", "data_par_net", execution_.data_par, execution_.data_par_net},
            {"pp", "pipeline_par", "pipeline_par_net", execution_.pipeline_par, execution_.pipeline_par_net}};
        const auto networks = static_cast<std::int64_t>(system_.networks.size());
        std::vector<std::int64_t> load(system_.networks.size(), 1);
        for (const PlacedAxis& axis : axes) {
            if (axis.network >= networks) {
                refuse(axis.network_key, "network " + std::to_string(axis.network) + " is not one of the system's " +
                                             std::to_string(networks) + " (0 to " + std::to_string(networks - 1) + ", " +
                                             system_file_.name + ")");
                continue;
            }
            if (axis.degree > 1) load[static_cast<std::size_t>(axis.network)] *= axis.degree;
        }
        if (!problems_.empty()) return;
        for (std::size_t n = 0; n < system_.networks.size(); ++n) {
            if (load[n] == 1) continue;
            const CalculonNetwork& network = system_.networks[n];
            const std::string_view key = key_on(n, axes);
            if (load[n] > network.size) {
                refuse(key, "network " + std::to_string(n) + " joins " + std::to_string(network.size) +
                                " processors, fewer than the " + std::to_string(load[n]) +
                                " its degrees need (Calculon: \"isn't big enough\")");
            } else if (network.must_be_filled && network.size % load[n] != 0) {
                refuse(key, "network " + std::to_string(n) + " must be filled (must_be_filled), and " +
                                std::to_string(load[n]) + " processors do not divide its " +
                                std::to_string(network.size) + " (Calculon: \"isn't fully used\")");
            }
            dimensions_.push_back(n);
            dimension_size_.push_back(load[n]);
            std::string carried;
            for (const PlacedAxis& axis : axes) {
                if (axis.degree > 1 && axis.network == static_cast<std::int64_t>(n)) {
                    carried += (carried.empty() ? "" : " × ") + std::string(axis.degree_key) + " " +
                               std::to_string(axis.degree);
                    mapping_.push_back(axis.axis);
                }
            }
            carries_.push_back(carried);
        }
        for (const PlacedAxis& axis : axes) {
            if (axis.degree == 1) mapping_.push_back(axis.axis);
        }
    }

    static std::string_view key_on(std::size_t network, std::span<const PlacedAxis> axes) {
        for (const PlacedAxis& axis : axes) {
            if (axis.degree > 1 && axis.network == static_cast<std::int64_t>(network)) return axis.network_key;
        }
        return axes.front().network_key;
    }

    std::string stem(const PeerFile& file) const { return std::filesystem::path(file.name).stem().string(); }
    std::string title() const { return stem(model_file_) + " on " + stem(system_file_) + " (Calculon)"; }

    void header() {
        yaml_ += "# A ParaSight scenario imported from Calculon's files:\n";
        yaml_ += "#   system: " + system_file_.name + "\n#   model: " + model_file_.name + "\n#   execution: " +
                 execution_file_.name + "\n";
        yaml_ += "# Each value says where it came from; the assumptions where Calculon's model and ParaSight's differ are "
                 "listed at the end.\n";
        yaml_ += "schema: 1\nname: " + yaml_string(title()) + "\n";
    }

    void write_model() {
        yaml_ += "model:\n  name: " + yaml_string(stem(model_file_)) + "\n  kind: transformer\n";
        yaml_ += "  layers: " + std::to_string(model_.num_blocks) + "  # num_blocks\n";
        yaml_ += "  hidden: " + std::to_string(model_.hidden) + "  # hidden\n";
        yaml_ += "  heads: " + std::to_string(model_.attn_heads) + "  # attn_heads\n";
        yaml_ += "  head_dim: " + std::to_string(model_.attn_size) + "  # attn_size\n";
        if (execution_.attention_type == "multiquery") {
            yaml_ += "  kv_heads: 1  # attention_type: multiquery, one key and value head\n";
        }
        yaml_ += "  ffn_hidden: " + std::to_string(model_.feedforward) + "  # feedforward\n";
        yaml_ += "  mlp: gelu  # two feed-forward matrices with biases, as Calculon's\n";
        yaml_ += "  seq_len: " + std::to_string(model_.seq_size) + "  # seq_size\n";
        yaml_ += "  vocab: 51200  # Calculon counts a 51200-token embedding in its parameters (llm.py)\n";
        notes_.emplace_back("vocab: Calculon counts a 51200-token embedding in its parameters but times no embedding or "
                            "output layer; ParaSight times both, on the first and last stages");
    }

    void write_training() {
        yaml_ += "training:\n";
        yaml_ += "  global_batch: " + std::to_string(execution_.batch_size) + "  # batch_size\n";
        yaml_ += "  micro_batch: " + std::to_string(execution_.microbatch_size) + "  # microbatch_size\n";
        yaml_ += "  dtype: " + std::string(dtype_of(execution_.datatype)) + "  # datatype: " + execution_.datatype + "\n";
        yaml_ += "  optimizer: adam\n";
        yaml_ += "  attention: unfused  # Calculon times attention as its two matmuls and the softmax\n";
        if (!execution_.fused_activation) {
            notes_.emplace_back("fused_activation: false — Calculon runs the activation as a kernel of its own; "
                                "ParaSight fuses it with the bias (training.eager_kernels: false)");
        }
    }

    void write_cluster() {
        const std::string system_name = stem(system_file_) + " (Calculon)";
        const std::string dtype(dtype_of(execution_.datatype));
        yaml_ += "cluster:\n  name: " + yaml_string(system_name) + "\n  device:\n";
        yaml_ += "    name: " + yaml_string(system_name) + "\n";
        yaml_ += "    peak: {";
        bool first = true;
        for (const auto& [datatype, tflops] : system_.matrix_TFLOPS) {
            yaml_ += (first ? "" : ", ") + std::string(dtype_of(datatype)) + ": " + format_number(tflops) + " TFLOP/s";
            first = false;
        }
        yaml_ += "}  # matrix.*.tflops\n";
        const double efficiency = system_.matrix_efficiency.at(execution_.datatype);
        yaml_ += "    matmul_efficiency: " + format_number(efficiency) + "  # matrix." + execution_.datatype +
                 ".gflops_efficiency, its largest operations\n";
        // ParaSight's devices hold at most 1024 TiB; Calculon's validation systems write far more for "unbounded".
        constexpr double most_GiB = 1048576.0;
        if (system_.memory_GiB > most_GiB) {
            yaml_ += "    memory: 1024 TiB  # mem1.GiB " + format_number(system_.memory_GiB) + ", past ParaSight's largest\n";
            notes_.push_back("mem1.GiB " + format_number(system_.memory_GiB) + ": more than ParaSight's largest "
                             "device memory, 1024 TiB, which is written — no model here fills either");
        } else {
            yaml_ += "    memory: " + format_number(system_.memory_GiB) + " GiB  # mem1.GiB\n";
        }
        yaml_ += "    memory_bandwidth: " + format_number(system_.memory_GBps) + " GB/s  # mem1.GBps (10^9 B)\n";
        yaml_ += "    memory_efficiency: " + format_number(system_.memory_efficiency) +
                 "  # mem1.MB_efficiency, its largest transfers\n";
        notes_.push_back("matrix." + execution_.datatype + ".gflops_efficiency: Calculon's efficiency by a matmul's "
                         "FLOPs; ParaSight takes its largest operations' " + format_number(efficiency) +
                         " and its own dependence on a matmul's depth (device.matmul_half_dim)");
        if (const auto vector = system_.vector_TFLOPS.find(execution_.datatype); vector != system_.vector_TFLOPS.end()) {
            notes_.push_back("vector." + execution_.datatype + ".tflops: Calculon times element-wise work by its FLOPs at " +
                             format_number(vector->second) + " TFLOPS; ParaSight by the bytes it moves");
        }
        if (system_.processing_mode == "no_overlap") {
            notes_.emplace_back("processing_mode: no_overlap — Calculon adds an operation's compute and memory time; "
                                "ParaSight's roofline takes the larger");
        }
        notes_.push_back("mem2: Calculon's offload tier (" + format_number(system_.offload_GiB) + " GiB at " +
                         format_number(system_.offload_GBps) + " GB/s) is not imported: the execution offloads nothing");
        yaml_ += "  topology:  # a dimension per network the execution uses, innermost first\n";
        if (dimensions_.empty()) {
            yaml_ += "    - {kind: switch, size: 1, bandwidth: " + format_number(system_.networks.front().bandwidth_GBps) +
                     " GB/s, latency: 0 s}  # one processor: no network is used\n";
            return;
        }
        for (std::size_t d = 0; d < dimensions_.size(); ++d) write_dimension(d);
    }

    void write_dimension(std::size_t d) {
        const std::size_t n = dimensions_[d];
        const CalculonNetwork& network = system_.networks[n];
        const std::int64_t members = dimension_size_[d];
        const std::string at = "networks[" + std::to_string(n) + "]";
        // The algorithm whose all-reduce moves what the network's does: 2(n-1)/n of the data is the ring's; D + D/n,
        // or D, an in-switch reduction's (NVLink SHARP, SHARP on InfiniBand).
        const bool in_switch = same_op(network.all_reduce, 1.0, 1.0) || same_op(network.all_reduce, 1.0, 0.0);
        const bool ring = same_op(network.all_reduce, 2.0, -1.0);
        yaml_ += "    - kind: switch  # " + at + ", carrying " + carries_[d] + "\n";
        yaml_ += "      size: " + std::to_string(members) + "  # the processors the degrees on it join\n";
        yaml_ += "      bandwidth: " + format_number(network.bandwidth_GBps) + " GB/s  # " + at + ".bandwidth (10^9 B)\n";
        yaml_ += "      efficiency: " + format_number(network.efficiency) + "  # " + at + ".efficiency\n";
        // Calculon charges its latency once an operation; ParaSight per hop and step: a whole-dimension all-reduce
        // (2(n-1) ring steps or 2 in-switch steps, 2 hops each through the switch) pays it.
        const double steps = all_reduce_steps(members, in_switch);
        yaml_ += "      latency: " + hop_latency_text(network.latency_s, members, in_switch) + "  # " + at + ".latency " +
                 format_number(network.latency_s * 1e6) + " us once per operation, shared by a whole-dimension "
                 "all-reduce's " + format_number(steps) + " steps of 2 hops\n";
        yaml_ += "      algorithm: " + std::string(in_switch ? "in_switch" : "ring") + "  # " + at +
                 ".ops.all_reduce " + op_text(network.all_reduce) + "\n";
        if (in_switch) yaml_ += "      in_switch_reduction: true\n";
        notes_.push_back(at + ".latency: Calculon charges " + format_number(network.latency_s * 1e6) +
                         " us once per operation; ParaSight charges each step's hops, so operations of fewer steps "
                         "pay less and a point-to-point send pays 2 hops");
        if (!ring && !in_switch) {
            notes_.push_back(at + ".ops.all_reduce " + op_text(network.all_reduce) + ": Calculon moves " +
                             share_text(network.all_reduce.scalar, network.all_reduce.offset) +
                             ", which no ParaSight algorithm does; the ring's 2(n − 1)/n is used");
        }
        if (same_op(network.all_reduce, 1.0, 0.0)) {
            notes_.push_back(at + ".ops.all_reduce [1, 0]: Calculon's in-network reduction moves the data once, "
                             "ParaSight's in-switch reduction (n + 1)/n of it (the reduced share comes back)");
        }
        // Reduce-scatter and all-gather: the ring moves (n-1)/n; in-switch, a reduce-scatter D and an all-gather (n-1)/n.
        const auto check = [&](std::string_view op_name, const CalculonNetworkOp& op, double scalar, double offset) {
            if (same_op(op, scalar, offset)) return;
            notes_.push_back(at + ".ops." + std::string(op_name) + " " + op_text(op) + ": Calculon moves " +
                             share_text(op.scalar, op.offset) + ", ParaSight's " +
                             (in_switch ? "in-switch reduction" : "ring") + " " + share_text(scalar, offset));
        };
        check("reduce_scatter", network.reduce_scatter, 1.0, in_switch ? 0.0 : -1.0);
        check("all_gather", network.all_gather, 1.0, -1.0);
        if (network.p2p.scalar != 1.0) {
            notes_.push_back(at + ".ops.p2p " + format_number(network.p2p.scalar) +
                             ": ParaSight sends a point-to-point message's bytes once");
        }
        if (network.processor_usage > 0.0) {
            notes_.push_back(at + ".processor_usage " + format_number(network.processor_usage) +
                             ": Calculon slows compute by that share while the network works; ParaSight charges "
                             "overlapped communication no compute");
        }
        if (network.size > members) {
            notes_.push_back(at + ".size " + std::to_string(network.size) + ": the topology has the " +
                             std::to_string(members) + " processors the execution uses on it");
        }
    }

    void write_parallelism() {
        yaml_ += "parallelism:\n";
        yaml_ += "  tp: " + std::to_string(execution_.tensor_par) + "  # tensor_par\n";
        yaml_ += "  pp: " + std::to_string(execution_.pipeline_par) + "  # pipeline_par\n";
        yaml_ += "  dp: " + std::to_string(execution_.data_par) + "  # data_par\n";
        yaml_ += "  mapping: [";
        for (std::size_t i = 0; i < mapping_.size(); ++i) yaml_ += (i == 0 ? "" : ", ") + std::string(mapping_[i]);
        yaml_ += "]  # tensor_par_net, data_par_net, pipeline_par_net: each degree on its network's dimension\n";
        const std::string& recompute = execution_.activation_recompute;
        yaml_ += "  recompute: " + std::string(recompute == "attn_only" ? "selective" : recompute) +
                 "  # activation_recompute: " + recompute + "\n";
        const std::string& comm = execution_.tensor_par_comm_type;
        yaml_ += "  sequence_parallel: " + std::string(comm == "rs_ag" ? "true" : "false") +
                 "  # tensor_par_comm_type: " + comm + "\n";
        if (comm == "p2p_rs_ag") {
            yaml_ += "  pp_scatter_gather: true  # tensor_par_comm_type: p2p_rs_ag, pipeline sends of 1/t gathered after\n";
        }
        if (comm == "rs_ag" && !execution_.seq_par_ag_redo) {
            notes_.emplace_back("seq_par_ag_redo: false — Calculon keeps the all-gathered input of sequence "
                                "parallelism for backward; ParaSight keeps the shard and gathers it again, as "
                                "Megatron-LM does (Korthikanti et al. 2022, §4.2.2)");
        }
        if (execution_.pipeline_interleaving > 1) {
            yaml_ += "  schedule: interleaved  # pipeline_interleaving\n";
            yaml_ += "  virtual_stages: " + std::to_string(execution_.pipeline_interleaving) +
                     "  # pipeline_interleaving\n";
        } else {
            yaml_ += "  schedule: 1f1b  # Calculon's pipeline: one forward, one backward\n";
        }
        if (execution_.optimizer_sharding) yaml_ += "  zero: 1  # optimizer_sharding over data_par\n";
        yaml_ += "  overlap_grad_reduce: " + std::string(execution_.data_par_overlap ? "true" : "false") +
                 "  # data_par_overlap\n";
        // Blocks that pipeline_par does not divide: Calculon gives the first num_blocks % pipeline_par processors one
        // block more (llm.py, _blocks_per_proc); the other stages share the rest evenly.
        const std::int64_t more = model_.num_blocks % execution_.pipeline_par;
        if (more == 0) return;
        const std::int64_t blocks = model_.num_blocks / execution_.pipeline_par + 1;
        yaml_ += "strategy_tree:  # num_blocks " + std::to_string(model_.num_blocks) + " over pipeline_par " +
                 std::to_string(execution_.pipeline_par) + ": the first " + std::to_string(more) +
                 " stages hold one block more, as Calculon's processors\n";
        for (std::int64_t stage = 0; stage < more; ++stage) {
            yaml_ += "  - {node: \"stage[" + std::to_string(stage) + "]\", layers: " + std::to_string(blocks) + "}\n";
        }
        notes_.push_back("num_blocks " + std::to_string(model_.num_blocks) + " over pipeline_par " +
                         std::to_string(execution_.pipeline_par) + ": Calculon reports its first processor, " +
                         std::to_string(blocks) + " blocks, and shortens its bubble by the stages with fewer; "
                         "ParaSight simulates every stage");
    }

    const CalculonSystem& system_;
    const CalculonModel& model_;
    const CalculonExecution& execution_;
    const PeerFile& system_file_;
    const PeerFile& model_file_;
    const PeerFile& execution_file_;
    Diagnostics problems_;
    std::vector<std::size_t> dimensions_;       // the network of each topology dimension
    std::vector<std::int64_t> dimension_size_;
    std::vector<std::string> carries_;          // "tensor_par 4"
    std::vector<std::string_view> mapping_;
    std::vector<std::string> notes_;
    std::string yaml_;
};

}  // namespace

double calculon_hop_latency_s(double operation_latency_s, std::int64_t members, bool in_switch) {
    const auto read = units::parse_quantity(hop_latency_text(operation_latency_s, members, in_switch),
                                            units::Dimension::time);
    return read ? *read : 0.0;
}

Expected<PeerImport, Diagnostics> import_calculon(const PeerFile& system_file, const PeerFile& model_file,
                                                  const PeerFile& execution_file) {
    Diagnostics diagnostics;
    // Files given in another order read as a list of unknown keys: say what each is instead.
    const auto noun = [](CalculonFileKind kind) -> std::string {
        return kind == CalculonFileKind::system ? "system" : kind == CalculonFileKind::model ? "model" : "execution";
    };
    for (const auto& [file, wanted] : {std::pair{&system_file, CalculonFileKind::system},
                                       {&model_file, CalculonFileKind::model},
                                       {&execution_file, CalculonFileKind::execution}}) {
        const auto kind = calculon_file_kind(file->text);
        if (kind && *kind != wanted) {
            diagnostics.push_back(Diagnostic{SourceLocation{file->name, 0, 0},
                                             "this is Calculon's " + noun(*kind) + " file, not its " + noun(wanted) +
                                                 " file: give the system, model and execution files in that order",
                                             {}});
        }
    }
    if (!diagnostics.empty()) return diagnostics;
    const auto system = read_calculon_system(system_file.text, system_file.name, diagnostics);
    const auto model = read_calculon_model(model_file.text, model_file.name, diagnostics);
    const auto execution = read_calculon_execution(execution_file.text, execution_file.name, diagnostics);
    if (!system || !model || !execution) return diagnostics;
    return CalculonScenario(*system, *model, *execution, system_file, model_file, execution_file).make();
}

}  // namespace parasight
