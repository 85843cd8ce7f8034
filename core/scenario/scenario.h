#pragma once
// The Scenario: everything one simulation needs — model, training setup, cluster, parallelism, strategy-tree
// overrides and simulation options — as plain values. Loaded from YAML (scenario_loader.h), written back by
// scenario_writer.h; save then load gives an equal Scenario.

#include "common/did_you_mean.h"
#include "diagnostics/diagnostic.h"
#include "topology/dimension.h"
#include "topology/parallel_layout.h"
#include "scenario/what_if.h"
#include "scenario/memory_system.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

enum class ModelKind { transformer, cnn };
enum class MlpKind { gelu, swiglu };
enum class CnnLayerType { conv, pool, fc };
enum class PoolOp { max, avg };
enum class Shortcut { none, identity, projection };
enum class Dtype { fp32, tf32, fp16, bf16, fp8 };
enum class Optimizer { adam, sgd };
// How the optimizer step runs (docs/model.md §4, "The optimizer step"): one fused multi-tensor kernel (Apex's and
// DeepSpeed's FusedAdam, PyTorch's fused=True), PyTorch's foreach kernels (one multi-tensor kernel per operation of the
// update) or its for-loop over the parameters (one kernel per operation and tensor).
enum class OptimizerImplementation { fused, foreach_kernels, for_loop };
// How the attention core (scores, softmax, dropout, ·V) runs: one fused kernel that never writes the s² scores
// (FlashAttention-2, Dao 2023), or Megatron-LM's separate kernels of 2021-2022.
enum class Attention { fused, unfused };
// selective_op: torchtitan's selective op activation checkpointing (torchtitan, parallelize_llama.py at 157a12c56,
// "selective op AC"): a layer saves its matmuls' outputs but every second one's, and the fused attention kernel's;
// everything else is recomputed in backward (docs/model.md §3).
enum class Recompute { none, selective, full, selective_op };
// Which tensor-parallel collectives run beside computation: none (Megatron-LM of 2021: each blocks the next kernel)
// or, in backward, the input gradient's collective beside the weight gradient and sequence parallelism's re-gather
// beside the input gradient (Megatron-LM from 2022, Korthikanti et al.).
enum class TpOverlap { none, backward };
enum class Schedule { gpipe, one_f_one_b, interleaved, zb_h1 };
// What ZeRO-3 gathers at a time: a layer's parameters (PyTorch FSDP wrapping each layer) or each module's
// (DeepSpeed's per-submodule fetch: norms, QKV, projection, MLP up and down).
enum class Zero3Gather { layer, module };
// The framework a run was made with (`training.stack`): a named set of the behaviours above (scenario/training_stack.h).
// `none`: ParaSight's own defaults.
enum class TrainingStack { none, megatron_lm_2021, megatron_core, nemo, deepspeed, fsdp };

extern const std::array<EnumName<ModelKind>, 2> model_kind_names;
extern const std::array<EnumName<MlpKind>, 2> mlp_kind_names;
extern const std::array<EnumName<CnnLayerType>, 3> cnn_layer_type_names;
extern const std::array<EnumName<PoolOp>, 2> pool_op_names;
extern const std::array<EnumName<Shortcut>, 3> shortcut_names;
extern const std::array<EnumName<Dtype>, 5> dtype_names;
extern const std::array<EnumName<Dtype>, 4> training_dtype_names;  // tf32 is a device peak, not a training dtype
// Names other tools give dtypes ("bfloat16", "half"): not accepted, since a dtype has one spelling, but suggested.
extern const std::array<SuggestionAlias, 9> dtype_suggestion_aliases;
extern const std::array<EnumName<Optimizer>, 2> optimizer_names;
extern const std::array<EnumName<OptimizerImplementation>, 3> optimizer_implementation_names;
extern const std::array<EnumName<Attention>, 2> attention_names;
extern const std::array<EnumName<Recompute>, 4> recompute_names;
extern const std::array<EnumName<TpOverlap>, 2> tp_overlap_names;
extern const std::array<EnumName<Schedule>, 4> schedule_names;
extern const std::array<EnumName<Zero3Gather>, 2> zero3_gather_names;
extern const std::array<EnumName<TrainingStack>, 6> training_stack_names;  // "none", "megatron-lm-2021", …

struct CnnLayer {
    CnnLayerType type = CnnLayerType::conv;
    int filters = 0;   // conv: output channels
    int kernel = 1;    // conv, pool: square kernel side
    int stride = 1;    // conv, pool
    int padding = 0;   // conv, pool
    PoolOp pool_op = PoolOp::max;
    int outputs = 0;   // fc

    friend bool operator==(const CnnLayer&, const CnnLayer&) = default;
};

// A run of layers applied `repeat` times; a plain layer in the file is a block of one layer, repeated once.
struct CnnBlock {
    int repeat = 1;
    Shortcut shortcut = Shortcut::none;
    std::vector<CnnLayer> layers;

    friend bool operator==(const CnnBlock&, const CnnBlock&) = default;
};

struct CnnInput {
    int channels = 3;
    int height = 224;
    int width = 224;

    friend bool operator==(const CnnInput&, const CnnInput&) = default;
};

struct ModelSpec {
    std::string preset;  // the preset it started from, or empty
    std::string name;
    ModelKind kind = ModelKind::transformer;
    // transformer
    int layers = 0;          // decoder layers; encoder layers of an encoder-decoder model
    int decoder_layers = 0;  // encoder-decoder models only
    int hidden = 0;
    int heads = 0;
    int kv_heads = 0;        // grouped-query attention; = heads when unset
    // The width of one attention head; unset (0): hidden / heads. PaLM (256 with 48 heads on 18432) and others set
    // it apart from the hidden size, so the attention's width heads · head_dim differs from hidden.
    int head_dim = 0;
    int ffn_hidden = 0;      // = 4 × hidden when unset
    MlpKind mlp = MlpKind::gelu;
    int seq_len = 0;
    int vocab = 0;
    bool tie_embeddings = true;
    // Whether training drops out attention probabilities and each block's output (Megatron-LM's default 0.1, GPT-2,
    // BERT, T5). Llama, MPT and other recent models train without: PyTorch's dropout with p = 0 returns its input
    // (no kernel, no mask — ATen's _dropout_impl), so the masks and the dropout's traffic go.
    bool dropout = true;
    // Whether each query attends only to the keys before it (decoders: GPT, Llama) or to every key (encoders: BERT,
    // T5's encoder). A fused kernel skips the masked tiles (docs/model.md §2); unfused kernels compute every score.
    bool causal_attention = true;
    // Attention and MLP run side by side on one normed input and add to the residual together (GPT-J, GPT-NeoX,
    // PaLM §2 "Parallel Layers"): one norm per layer, and with tensor parallelism one collective forward and one
    // backward per layer instead of one per block.
    bool parallel_blocks = false;
    int experts = 1;             // mixture of experts: experts per MLP (1 = dense)
    int experts_per_token = 1;   // top-k routing
    // Expert buffers hold capacity_factor × the balanced share of tokens (GShard, Switch Transformer): every expert
    // computes and exchanges that many, padded or dropped; 1 = perfectly balanced routing.
    double capacity_factor = 1.0;
    // cnn
    CnnInput input;
    std::vector<CnnBlock> cnn_layers;

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

struct TrainingSpec {
    std::int64_t global_batch = 0;  // sequences (samples) per iteration
    int micro_batch = 1;            // per data-parallel replica
    // Samples in one epoch (ImageNet-1k's 1 281 167): what the oracle's epoch view needs; unset, it shows iterations.
    std::optional<std::int64_t> dataset_samples;
    Dtype dtype = Dtype::bf16;
    Optimizer optimizer = Optimizer::adam;
    // Fused by default: Megatron-LM and Megatron-Core (Apex's or Transformer Engine's FusedAdam), DeepSpeed (its
    // FusedAdam) and torchtitan (optimizer.implementation = "fused") step in one kernel; llm-foundry's Composer
    // DecoupledAdamW loops over the parameters.
    OptimizerImplementation optimizer_implementation = OptimizerImplementation::fused;
    // Fused by default: Megatron-Core (with Transformer Engine), DeepSpeed and PyTorch's scaled_dot_product_attention
    // all run a fused kernel today; unfused reproduces the Megatron-LM runs of 2021-2022 (Narayanan, Korthikanti).
    Attention attention = Attention::fused;
    // Gradients accumulated across micro-batches and reduced in fp32 rather than at the weights' width (Megatron-LM's
    // main_grad buffers with bf16); 4 bytes a parameter in memory and in every gradient reduction.
    bool fp32_gradients = false;
    // The memory-bound kernels as eager PyTorch runs them — the norms (RMSNorm written out in fp32 for a SwiGLU
    // model, as Llama's reference code and torchtitan have it), the activation, the bias/dropout/residual adds and the
    // fp32 cross-entropy over the logits, each a chain of separate kernels — rather than fused in one pass each
    // (Megatron's and Transformer Engine's kernels). docs/model.md §2, "Eager kernels".
    bool eager_kernels = false;
    // The step's kernels replayed from CUDA graphs (torch.cuda.make_graphed_callables, Megatron-Core's CUDA graphs)
    // rather than launched one by one: the host's launch floor at the device's graph_kernel_launch.
    bool cuda_graphs = false;
    // The behaviours a stack decides (scenario/training_stack.h); none: ParaSight's defaults.
    TrainingStack stack = TrainingStack::none;

    friend bool operator==(const TrainingSpec&, const TrainingSpec&) = default;
};

struct DeviceSpec {
    std::string preset;
    std::string name;
    std::map<Dtype, double> peak_flops;  // FLOP/s per dtype
    double memory_bytes = 0.0;
    double memory_bandwidth_Bps = 0.0;
    // Roofline calibration (docs/model.md): the share of peak that large matmuls reach — NVIDIA's Matrix
    // Multiplication Background guide (2023) shows large A100 fp16/bf16 GEMMs at about 80% of 312 TFLOP/s; the
    // depth k at which a GEMM tile reaches half of that — a tile's prologue and epilogue cost about as much as a
    // 128-deep k loop (the guide's tiles load k in steps of 32–64 through a pipeline several steps deep); the
    // streaming multiprocessors the tiles run on (0: the device names none, and matmuls are not quantised — the
    // GPU presets give theirs, from NVIDIA's architecture whitepapers); the share of datasheet bandwidth that
    // streaming kernels reach — STREAM- and BabelStream-style copies reach 80–90% of HBM datasheet bandwidth on
    // A100 and H100; 0.85 is the middle. These are A100 figures: a device preset with published measurements of its
    // own scales them (the H100 and H200 presets, docs/model.md §2).
    double matmul_efficiency = 0.8;
    // What large fp8 GEMMs reach of the fp8 peak, where it differs from matmul_efficiency (measured on an H100: 0.92
    // of the bf16 GEMMs' share, docs/model.md §2); 0: matmul_efficiency.
    double fp8_matmul_efficiency = 0.0;
    double matmul_half_dim = 128.0;
    int streaming_multiprocessors = 0;
    double memory_efficiency = 0.85;
    // The share of peak a fused attention kernel reaches on the FLOPs it does: FlashAttention-2 reaches 50–73% of
    // A100 peak (Dao 2023, abstract and §4.1); FlashAttention-3 75% of H100 peak forward (Shah et al. 2024), where
    // FlashAttention-2 reaches 34% (the H100 presets' 0.339), on long sequences at head width 128.
    double attention_efficiency = 0.6;
    // The host's time to launch one kernel of a training step, eagerly (PyTorch's Python, dispatcher and autograd per
    // kernel) and replayed from a CUDA graph (training.cuda_graphs); 0: not known, and no launch floor is charged
    // (docs/model.md §2, "Kernel launch floor"). Measured by parasight-calibrate (a decoder's layer stack stepped
    // eagerly while the GPU waits on the host: the step's time over the kernels torch.profiler counts).
    double kernel_launch_s = 0.0;
    double graph_kernel_launch_s = 0.0;
    // What the runtime takes of the device's memory before the model allocates anything — the CUDA context, the
    // kernel images of CUDA, cuBLAS, cuDNN and PyTorch loaded into it — held for the whole run (memory category
    // runtime); 0: not known, and nothing is counted (docs/model.md §4, "The runtime's memory"). Measured as
    // BigScience did (`torch.ones(1).cuda()`, then nvidia-smi): 1573 MiB on an A100 40GB, 1271 MiB on a V100 32GB;
    // parasight-calibrate measures it with torch.cuda.mem_get_info.
    double context_memory_bytes = 0.0;

    friend bool operator==(const DeviceSpec&, const DeviceSpec&) = default;
};

struct ClusterSpec {
    std::string preset;
    std::string name;
    DeviceSpec device;
    std::vector<Dimension> topology;  // innermost first
    // How a collective on a group spanning several dimensions is built; clusters that run NCCL say flat_ring.
    MultiDimensionCollectives multi_dimension_collectives = MultiDimensionCollectives::hierarchical;
    MemorySystemSpec memory_system;  // where tensors can live besides the devices' memory; empty: nowhere

    // memory_system.gpus_per_node, or the innermost dimension's size when it is not written.
    [[nodiscard]] int gpus_per_node() const noexcept;

    friend bool operator==(const ClusterSpec&, const ClusterSpec&) = default;
};

struct ParallelismSpec {
    int tp = 1;
    int cp = 1;
    int ep = 1;
    int dp = 1;
    int pp = 1;
    std::optional<ParallelAxis> derived_axis;  // the axis written as `auto`, its degree derived from the device count
    int zero = 0;
    // ZeRO-3: how many layers' parameter gathers may run ahead of the layer that computes — 1 when not given (FSDP's
    // backward prefetch of the next unit); 0 gathers each layer when it is needed, as DeepSpeed does once a layer
    // outgrows its prefetch bucket (stage3_prefetch_bucket_size, 5·10^7 parameters by default).
    std::optional<int> zero3_prefetch_layers;
    std::optional<Zero3Gather> zero3_gather;  // layer when not given
    // ZeRO-1: the data-parallel gradients all-reduced in full rather than reduce-scattered to the shards that step
    // them (DeepSpeed's BF16 optimizer); the stack's when not given (scenario/training_stack.h).
    std::optional<bool> zero1_all_reduce;
    bool sequence_parallel = false;
    // Data-parallel gradients reduced in buckets while backward still runs (PyTorch DDP; Megatron-Core's
    // --overlap-grad-reduce), or all at once after it (Megatron-LM's DDP of 2021-2022).
    bool overlap_grad_reduce = true;
    // Pipeline sends run beside the next step (Megatron-Core's --overlap-p2p-communication), or the step after a
    // send waits for it (Megatron-LM's schedules of 2021-2022 waited on each send and receive).
    bool overlap_p2p = true;
    // A pipeline send starts only when its receiver has posted the matching receive, in the order DeepSpeed's
    // pipeline engine issues them (deepspeed/runtime/pipe/schedule.py, TrainSchedule: each step first exchanges with
    // both neighbours — a forward step receives its activation before sending the previous step's gradient, a
    // backward step sends the previous step's activation before receiving its gradient). GPipe and 1F1B only.
    bool p2p_rendezvous = false;
    // Where the optimizer's states (fp32 master weights and Adam's moments, or SGD's momentum) live between steps:
    // on the device, or in a tier of cluster.memory_system, loaded before the optimizer step and stored after it
    // (ZeRO-Offload, Ren et al. 2021; ZeRO-Infinity, Rajbhandari et al. 2021).
    OffloadTarget offload_optimizer = OffloadTarget::none;
    // Where ZeRO-3's shards of the layers' parameters live between uses (ZeRO-Infinity's offload_param, Rajbhandari
    // et al. 2021 §5): on the device, or in a tier of cluster.memory_system, each layer's shard loaded before its
    // gathers in forward and backward and the updated shard stored after the optimizer step. Needs zero 3.
    OffloadTarget offload_parameters = OffloadTarget::none;
    // Where ZeRO's gradient shards live once reduced (ZeRO-Offload moves them to the CPU as backward produces them,
    // Ren et al. 2021 §4.1): on the device, or in a tier of cluster.memory_system, each reduced bucket's shard stored
    // after its reduce-scatter and the shard loaded again for the optimizer step. Needs zero 2 or 3.
    OffloadTarget offload_gradients = OffloadTarget::none;
    // Where the optimizer step runs. host: ZeRO-Offload's (Ren et al. 2021 §4): the host's CPUs update the states in
    // host memory (CPU-Adam) from the gradient shards stored there, and each device loads back only its updated 16-bit
    // parameters — instead of the device loading the states, updating them and storing them back. Needs
    // offload_optimizer and offload_gradients host, and the host's memory_bandwidth.
    OptimizerStepPlace optimizer_step_on = OptimizerStepPlace::device;
    // Offloaded states go through the device in sub-groups of this many parameters, at most two at a time (DeepSpeed's
    // zero_optimization.sub_group_size, 10^9 by default).
    std::optional<std::int64_t> offload_sub_group;
    // Without sequence parallelism each TP rank sends 1/t of the boundary activation and the receiver all-gathers it
    // over TP (Megatron-LM's --scatter-gather-tensors-in-pipeline, on in 2021-2022; Megatron-Core has no such step).
    bool pp_scatter_gather = false;
    // Off by default, as in Megatron-LM of 2021 (Narayanan et al.); Megatron-LM 2022 runs say backward.
    TpOverlap tp_overlap = TpOverlap::none;
    Recompute recompute = Recompute::none;
    Schedule schedule = Schedule::one_f_one_b;
    int virtual_stages = 1;
    // The interleaved schedule's micro-batches per group (Megatron-Core's microbatch_group_size_per_vp_stage, Llama
    // 3's N); pp when not given.
    std::optional<int> micro_batch_group;
    std::vector<ParallelAxis> mapping{ParallelAxis::tp, ParallelAxis::cp, ParallelAxis::ep, ParallelAxis::dp,
                                      ParallelAxis::pp};  // innermost first

    [[nodiscard]] int degree(ParallelAxis axis) const noexcept;
    void set_degree(ParallelAxis axis, int degree) noexcept;
    // Every axis in layout order: the listed ones, then the unlisted ones (all of degree 1).
    [[nodiscard]] std::vector<AxisDegree> layout_order() const;

    friend bool operator==(const ParallelismSpec&, const ParallelismSpec&) = default;
};

// One strategy-tree override (Proteus): a node path and the values set on it; unset values are inherited.
struct StrategyOverride {
    std::string node;  // "stage[3]"
    std::optional<int> layers;
    std::optional<Recompute> recompute;
    std::optional<int> micro_batches;
    std::optional<int> max_ongoing_micro_batches;
    SourceLocation location;  // where the entry was written; not part of equality

    friend bool operator==(const StrategyOverride& a, const StrategyOverride& b) {
        return a.node == b.node && a.layers == b.layers && a.recompute == b.recompute &&
               a.micro_batches == b.micro_batches && a.max_ongoing_micro_batches == b.max_ongoing_micro_batches;
    }
};

struct SimulationSpec {
    double overlap_slowdown = 0.1;  // Proteus' γ: overlapped compute and communication each slow by this fraction
    bool bandwidth_sharing = true;
    // Repeat the pipeline's steady period instead of simulating every micro-batch (engine/steady_period.h): the same
    // result at a fraction of the cost. Off: every micro-batch event by event.
    bool steady_state = true;
    int collective_chunks = 64;     // pieces a collective's buffer is cut into to pipeline across dimensions
    // Gradients are reduced in buckets of this size as backward produces them (PyTorch DDP's bucket_cap_mb = 25).
    double gradient_bucket_bytes = 25.0 * 1024 * 1024;
    // A CSV of measured operation times replacing the roofline (device/measured_operations.h): the path as written,
    // relative to the scenario file, and its rows by measured_key.
    std::string measured_operations;
    std::map<std::string, double> measured_times_s;

    friend bool operator==(const SimulationSpec&, const SimulationSpec&) = default;
};

struct Scenario {
    int schema = 1;
    std::string name;
    ModelSpec model;
    TrainingSpec training;
    ClusterSpec cluster;
    ParallelismSpec parallelism;
    std::vector<StrategyOverride> strategy_tree;
    SimulationSpec simulation;
    WhatIfSpec what_if;

    [[nodiscard]] std::int64_t device_count() const noexcept;
    // Samples processed side by side: dp replicas, each split again over its ep expert-parallel ranks (which share
    // the dense layers' work by data, as Megatron-LM carves expert parallelism out of data parallelism).
    [[nodiscard]] std::int64_t data_replicas() const noexcept;
    // Micro-batches each replica runs per iteration: global_batch / (data_replicas × micro_batch).
    [[nodiscard]] std::int64_t micro_batches() const noexcept;
    [[nodiscard]] Topology topology() const { return Topology(cluster.topology); }

    friend bool operator==(const Scenario&, const Scenario&) = default;
};

inline constexpr int current_schema = 1;

}  // namespace parasight
