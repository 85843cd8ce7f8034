#include "scenario_form/field_help.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <map>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("FieldHelp", text); }

const std::map<QString, QString>& help_by_path() {
    static const std::map<QString, QString> help{
        {QStringLiteral("model.preset"),
         tr("A bundled model: choosing one replaces the model's sizes as naming it in the file would")},
        {QStringLiteral("model.layers"), tr("Transformer layers (the encoder's, for an encoder-decoder model)")},
        {QStringLiteral("model.hidden"), tr("The model width h: every layer's activations are h numbers per token")},
        {QStringLiteral("model.heads"),
         tr("Attention heads a; tensor parallelism gives each rank whole heads, so tp must divide them")},
        {QStringLiteral("model.kv_heads"),
         tr("Key/value heads (grouped-query attention): each serves heads / kv_heads query heads; empty: as many "
            "as heads")},
        {QStringLiteral("model.ffn_hidden"), tr("The MLP's inner width; empty: 4 × hidden")},
        {QStringLiteral("model.seq_len"), tr("Tokens per sequence, s")},
        {QStringLiteral("model.vocab"), tr("Vocabulary size V: the embedding table and the logits layer are V × h")},
        {QStringLiteral("model.experts"), tr("Experts per MLP (mixture of experts); 1 is a dense model")},
        {QStringLiteral("model.experts_per_token"), tr("Experts each token is routed to (top-k routing)")},
        {QStringLiteral("training.global_batch"), tr("Sequences (samples) per iteration, over every replica")},
        {QStringLiteral("training.micro_batch"),
         tr("Sequences per micro-batch on each data-parallel replica; a replica runs global batch / (dp × ep × "
            "micro-batch) micro-batches per iteration")},
        {QStringLiteral("training.dataset_samples"),
         tr("Samples in one epoch (ImageNet-1k: 1 281 167); the Oracle shows per-epoch times with it, per-iteration "
            "times without; the simulation does not use it")},
        {QStringLiteral("training.dtype"),
         tr("The number format computation runs in; the device's peak for it sets the compute rate")},
        {QStringLiteral("training.optimizer"),
         tr("Adam keeps an fp32 master copy and two moments per parameter (16 bytes per parameter in all with mixed "
            "precision); SGD keeps none")},
        {QStringLiteral("training.optimizer_implementation"),
         tr("How the optimizer step runs — fused: one kernel over every parameter (Megatron, DeepSpeed, torchtitan); "
            "foreach or for-loop: PyTorch's update as eight separate kernels, three times the memory traffic "
            "(llm-foundry's optimizer loops)")},
        {QStringLiteral("training.stack"),
         tr("The framework the run is made with: it sets attention, the tensor-parallel, gradient and pipeline "
            "overlaps and ZeRO-3's gathers as that stack does (docs/model.md, Training stacks); a value set apart "
            "stays")},
        {QStringLiteral("training.fp32_gradients"),
         tr("Gradients accumulated across micro-batches and reduced in fp32 (Megatron-LM with bf16): 4 bytes a "
            "parameter in memory and in every gradient reduction, instead of the weights' 2")},
        {QStringLiteral("training.attention"),
         tr("fused: one attention kernel (FlashAttention) that keeps no s × s scores; unfused: the attention core "
            "as separate kernels, keeping them (Korthikanti et al. 2022)")},
        {QStringLiteral("cluster.preset"), tr("A bundled cluster: its device and topology")},
        {QStringLiteral("cluster.device"),
         tr("A bundled device: its peak rates, memory and memory bandwidth, each with its source")},
        {QStringLiteral("cluster.device.memory"), tr("Memory per device; a run that needs more is out of memory")},
        {QStringLiteral("cluster.device.memory_bandwidth"),
         tr("The datasheet memory bandwidth; memory-bound operations stream at it times the memory efficiency")},
        {QStringLiteral("cluster.device.streaming_multiprocessors"),
         tr("Streaming multiprocessors: each GEMM's tiles run one per SM at a time, in waves, so a last wave that "
            "leaves SMs idle costs a whole one (tile and wave quantisation); empty: matmuls unquantised")},
        {QStringLiteral("cluster.device.attention_efficiency"),
         tr("Efficiency: the share of the peak a fused attention kernel reaches on its FLOPs (FlashAttention-2: 50–73% "
            "of an A100's)")},
        {QStringLiteral("cluster.device.fp8_matmul_efficiency"),
         tr("The share of the fp8 peak that large fp8 GEMMs reach, for fp8 training's linear layers (an H100: 0.917 "
            "times bf16's share, measured); empty: bf16's share, matmul_efficiency")},
        {QStringLiteral("cluster.device.context_memory"),
         tr("What the CUDA context and its kernels take of the device's memory before the model allocates anything, "
            "on every device for the whole run (1573 MiB on an A100 by nvidia-smi). Measured by parasight-calibrate; "
            "empty: not counted")},
        {QStringLiteral("cluster.device.kernel_launch"),
         tr("The host's time to launch one kernel of an eager training step (Python, dispatcher, autograd): a "
            "layer's forward or backward takes at least its kernels times this. Measured by parasight-calibrate; "
            "empty: no launch floor")},
        {QStringLiteral("cluster.device.graph_kernel_launch"),
         tr("The host's time per kernel replayed from a CUDA graph (training.cuda_graphs): a layer's forward or "
            "backward takes at least its kernels times this; empty: no launch floor")},
        {QStringLiteral("cluster.memory_system.host.capacity"),
         tr("Each node's CPU memory, where offloaded optimizer states, gradients and parameters can live "
            "(ZeRO-Offload); empty: none. With it, give the host link too")},
        {QStringLiteral("cluster.memory_system.host.link_bandwidth"),
         tr("Each GPU's own link to its node's CPU memory (PCIe, CXL), each direction: what a load or store of "
            "offloaded states moves at")},
        {QStringLiteral("cluster.memory_system.host.memory_bandwidth"),
         tr("The node's CPU memory itself, all its channels (e.g. 409.6 GB/s for two 8-channel DDR4-3200 sockets): what "
            "an optimizer step on the host streams the states at, shared by the node's GPUs; empty: not given")},
        {QStringLiteral("cluster.memory_system.gpus_per_node"),
         tr("GPUs sharing one node's host memory, NVMe and in-node pool switch; empty: the innermost topology "
            "dimension's size")},
        {QStringLiteral("cluster.memory_system.nvme.capacity"),
         tr("Each node's NVMe drives, where offloaded optimizer states, gradients and parameters can live "
            "(ZeRO-Infinity); empty: none. With it, give their bandwidth too")},
        {QStringLiteral("cluster.memory_system.nvme.bandwidth"),
         tr("All of a node's drives together, each direction, shared by the node's GPUs")},
        {QStringLiteral("cluster.memory_system.pool.in_node_bandwidth"),
         tr("A disaggregated memory pool (ASTRA-sim 2.0's hierarchical memory): the in-node pooled fabric, the node's "
            "switch to one GPU; empty: no pool. With it, give the pool's other numbers too")},
        {QStringLiteral("cluster.memory_system.pool.out_node_switches"),
         tr("Out-node switches, each linked to every node and to every remote memory group")},
        {QStringLiteral("cluster.memory_system.pool.node_link_bandwidth"),
         tr("One out-node switch's link to one node")},
        {QStringLiteral("cluster.memory_system.pool.remote_groups"),
         tr("Remote memory groups: the pool's memory, each reached through every out-node switch")},
        {QStringLiteral("cluster.memory_system.pool.remote_group_bandwidth"),
         tr("What one remote group moves, split evenly over its links to the out-node switches")},
        {QStringLiteral("cluster.memory_system.pool.group_capacity"), tr("One remote group's memory")},
        {QStringLiteral("cluster.memory_system.pool.chunk"),
         tr("The unit the pool's network moves: a transfer is pipelined chunk by chunk through its three stages")},
        {QStringLiteral("cluster.memory_system.pool.in_switch_collectives"),
         tr("The pool's switches gather parameters while they are loaded and reduce-scatter gradients while they "
            "are stored")},
        {QStringLiteral("cluster.multi_dimension_collectives"),
         tr("How a collective on a group spanning several dimensions runs: hierarchical (a phase per dimension, the "
            "data shrinking on the way, chunks pipelined across dimensions, as ASTRA-sim 2.0) or flat_ring (one ring "
            "through every member, its channels spread over every NPU's ports, as NCCL runs it across nodes)")},
        {QStringLiteral("kind"),
         tr("ring: each NPU joined to its two neighbours; fully_connected: a link to every other member; switch: "
            "every member on one switch")},
        {QStringLiteral("size"), tr("NPUs along this dimension (blocks of the dimension inside it, beyond the first)")},
        {QStringLiteral("bandwidth"),
         tr("What one NPU injects into this dimension, per direction: the line rate (e.g. 300 GB/s, 200 Gb/s)")},
        {QStringLiteral("latency"), tr("The time a message takes per hop on this dimension")},
        {QStringLiteral("efficiency"),
         tr("Efficiency: the fraction of the bandwidth collectives and sends reach (measured bus bandwidth / line "
            "rate, as nccl-tests report it)")},
        {QStringLiteral("in_switch_reduction"),
         tr("Switch reduces: the switch can reduce and multicast (NVLink SHARP, SHARP on InfiniBand), so NCCL's "
            "choice weighs in-switch reduction against the ring and the tree")},
        {QStringLiteral("step_latency"),
         tr("Step latency: the software time each algorithm step adds on this dimension (NCCL's cost per step), on "
            "top of the hop latency")},
        {QStringLiteral("parallelism.tp"),
         tr("Tensor parallelism: each layer's matrices split across tp devices, with a collective per block; auto: "
            "derived from the device count")},
        {QStringLiteral("parallelism.cp"),
         tr("Context parallelism: the sequence split across cp devices; auto: derived from the device count")},
        {QStringLiteral("parallelism.ep"),
         tr("Expert parallelism: the experts spread across ep devices; auto: derived from the device count")},
        {QStringLiteral("parallelism.dp"),
         tr("Data parallelism: dp replicas each take a share of the batch and reduce their gradients; auto: derived "
            "from the device count")},
        {QStringLiteral("parallelism.pp"),
         tr("Pipeline parallelism: the layers split into pp stages that pass activations along; auto: derived from "
            "the device count")},
        {QStringLiteral("parallelism.zero"),
         tr("ZeRO stage: 1 shards the optimizer state across the data-parallel replicas, 2 the gradients too, 3 the "
            "parameters too (gathered again for each layer)")},
        {QStringLiteral("model.dropout"),
         tr("Dropout: training drops out the attention probabilities and each block's output (GPT-2, BERT, "
            "Megatron-LM's default); off (Llama, MPT): no dropout masks are kept and no dropout runs")},
        {QStringLiteral("model.causal_attention"),
         tr("Causal attention: each token attends only to the tokens before it (GPT, Llama); a fused attention "
            "kernel then skips the masked half of the scores. Off: encoders (BERT, T5's encoder) see every token")},
        {QStringLiteral("training.eager_kernels"),
         tr("Eager kernels: the norms, activation, residual adds and the fp32 loss run as eager PyTorch runs them, "
            "each a chain of kernels (PyTorch FSDP's stacks); off: fused, one pass each (Megatron, Transformer "
            "Engine)")},
        {QStringLiteral("training.cuda_graphs"),
         tr("CUDA graphs: the step's kernels replayed from CUDA graphs, so the host's launch floor is the device's "
            "graph kernel launch time; off: each kernel launched in turn at its kernel launch time (where the device "
            "gives one, a layer's pass takes at least its kernels times that)")},
        {QStringLiteral("model.parallel_blocks"),
         tr("Parallel blocks: attention and MLP side by side on one normed input (GPT-J, GPT-NeoX, PaLM): one norm "
            "and, with tensor parallelism, one collective each way per layer instead of one per block")},
        {QStringLiteral("parallelism.sequence_parallel"),
         tr("Megatron's sequence parallelism (Korthikanti et al. 2022): the norms and dropouts split along the "
            "sequence across tp, each TP all-reduce becoming a reduce-scatter and an all-gather")},
        {QStringLiteral("parallelism.overlap_grad_reduce"),
         tr("DP overlap: data-parallel gradients reduced in buckets while backward still runs (PyTorch DDP, "
            "Megatron-Core); off: all at once after it (Megatron-LM's DDP of 2021-2022)")},
        {QStringLiteral("parallelism.overlap_p2p"),
         tr("PP overlap: pipeline sends run beside the device's next step (Megatron-Core); off: the next step waits "
            "for each send (Megatron-LM of 2021-2022)")},
        {QStringLiteral("parallelism.p2p_rendezvous"),
         tr("PP rendezvous: a pipeline send starts only when its receiver has posted the receive, in the order "
            "DeepSpeed's pipeline engine exchanges at each step (GPipe and 1F1B only)")},
        {QStringLiteral("parallelism.offload_optimizer"),
         tr("Where the optimizer's states live between steps — none: on the device; host, nvme or pool: in that tier "
            "of the cluster's memory system, loaded before the step and stored back after it (ZeRO-Offload, "
            "ZeRO-Infinity)")},
        {QStringLiteral("parallelism.offload_parameters"),
         tr("Where ZeRO-3's shards of the layers' parameters live — none: on the device; host, nvme or pool: in that "
            "tier, each layer's shard loaded before its gather in forward and backward and stored back after the "
            "optimizer step (ZeRO-Infinity); with the pool's in-switch collectives the load is the gather. Needs "
            "ZeRO 3")},
        {QStringLiteral("parallelism.offload_gradients"),
         tr("Where ZeRO's gradient shards live once reduced — none: on the device; host, nvme or pool: in that tier, "
            "each reduced bucket's shard stored after its reduce-scatter and loaded again for the optimizer step "
            "(ZeRO-Offload); with the pool's in-switch collectives the store is the reduce-scatter. Needs ZeRO 2 or 3")},
        {QStringLiteral("parallelism.optimizer_step_on"),
         tr("Where the optimizer step runs — device: offloaded states are loaded, updated and stored back; host: the "
            "host's CPUs update them in host memory from the gradients stored there and each device loads back only "
            "its updated 16-bit weights (ZeRO-Offload's CPU-Adam). Host needs the states and gradients offloaded to "
            "host memory and the host's memory bandwidth")},
        {QStringLiteral("parallelism.offload_sub_group"),
         tr("Offloaded optimizer states and gradients move and are updated this many parameters at a time, at most two such "
            "sub-groups on the device at once (DeepSpeed's sub_group_size); empty: 10⁹")},
        {QStringLiteral("parallelism.pp_scatter_gather"),
         tr("Without sequence parallelism, each TP rank sends 1/tp of the boundary activation and the receiving "
            "stage all-gathers it over TP (Megatron-LM's --scatter-gather-tensors-in-pipeline)")},
        {QStringLiteral("parallelism.tp_overlap"),
         tr("TP overlap — backward: a block's input-gradient TP collective runs beside its weight gradient "
            "(Megatron-LM from late 2021); none: each block's collective waits for the block")},
        {QStringLiteral("parallelism.recompute"),
         tr("Activation recomputation — selective: the attention core recomputed in backward instead of kept; full: "
            "whole layers recomputed, only their inputs kept; selective_op: every matmul output but every second one "
            "and the attention kernel's kept, the rest recomputed (torchtitan's selective op AC); none: everything "
            "kept")},
        {QStringLiteral("parallelism.schedule"),
         tr("The pipeline schedule — gpipe: every forward, then every backward; 1f1b: one forward, one backward in "
            "the steady state (less memory, the same bubble); interleaved: several model chunks per device (a "
            "smaller bubble); zb-h1: backward split into input and weight gradients (zero-bubble H1)")},
        {QStringLiteral("parallelism.virtual_stages"),
         tr("Model chunks per device with the interleaved schedule: the bubble falls to (pp − 1) / (v × m + pp − 1) "
            "of the iteration")},
        {QStringLiteral("simulation.overlap_slowdown"),
         tr("γ (Proteus): overlapped computation and communication each run this fraction slower while they overlap "
            "(0.1: 10%)")},
        {QStringLiteral("simulation.bandwidth_sharing"),
         tr("Concurrent transfers on one link share its bandwidth fairly, re-rated as each starts and ends")},
        {QStringLiteral("simulation.steady_state"),
         tr("Simulate a few micro-batches, find the period the pipeline settles into and repeat it for the rest: the "
            "same result at a fraction of the cost. Off: every micro-batch event by event")},
        {QStringLiteral("simulation.collective_chunks"),
         tr("Pieces a collective's buffer is cut into, to pipeline across dimensions (ASTRA-sim 2.0)")},
        {QStringLiteral("simulation.gradient_bucket"),
         tr("Gradients are reduced in buckets of this size as backward produces them (PyTorch DDP's bucket)")},
    };
    return help;
}

}  // namespace

QString field_help(const QString& path) {
    // A topology dimension's field is helped by its key alone: "cluster.topology[1].bandwidth" → "bandwidth".
    static const QRegularExpression dimension_field(QStringLiteral("^cluster\\.topology\\[\\d+\\]\\.(\\w+)$"));
    const QRegularExpressionMatch match = dimension_field.match(path);
    const QString key = match.hasMatch() ? match.captured(1) : path;
    const auto found = help_by_path().find(key);
    return found == help_by_path().end() ? QString() : found->second;
}

}  // namespace parasight::gui
