// Checks that span sections: parallel degrees against the cluster and the model, batch divisibility, schedules,
// strategy-tree stage layers, the training dtype against the device. Each message says what is wrong and what would
// be right, at the key the user wrote.
#include "common/message_text.h"
#include "model/model_structure.h"
#include "strategy/node_path.h"
#include "validation/checks.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

namespace parasight {
namespace {

std::string axis_path(ParallelAxis axis) { return "parallelism." + std::string(to_string(axis)); }

// "1 layer, layer[0]" or "8 layers, layer[0] to layer[7]": the nodes a model of `layers` layers has.
std::string layer_range(int layers) {
    if (layers == 1) return "1 layer, layer[0]";
    return count_phrase(layers, "layer") + ", layer[0] to layer[" + std::to_string(layers - 1) + "]";
}

std::string topology_shape(const std::vector<Dimension>& topology) {
    std::string text;
    for (const Dimension& dimension : topology) {
        if (!text.empty()) text += " x ";
        text += std::to_string(dimension.size);
    }
    return text;
}

// Resolves an `auto` degree and checks that the degrees multiply to the device count. Returns whether they do.
bool check_degrees(Scenario& scenario, ProblemList& check) {
    ParallelismSpec& parallelism = scenario.parallelism;
    const std::int64_t devices = scenario.device_count();
    // Degrees are each at most 10^7; the product is capped just past the device limit so that it cannot overflow.
    constexpr std::int64_t cap = 10'000'001;
    std::int64_t product = 1;
    std::string factors;
    for (const auto& axis : parallel_axis_names) {
        if (parallelism.derived_axis == axis.value) continue;
        product = std::min(product * parallelism.degree(axis.value), cap);
        if (parallelism.degree(axis.value) > 1) {
            factors += (factors.empty() ? "" : " x ") + std::string(axis.name) + "=" +
                       std::to_string(parallelism.degree(axis.value));
        }
    }
    if (factors.empty()) factors = "1";
    if (parallelism.derived_axis) {
        const ParallelAxis axis = *parallelism.derived_axis;
        if (product >= cap || devices % product != 0) {
            const std::string total = product >= cap ? "more than 10000000" : std::to_string(product);
            check.add(axis_path(axis), "cannot derive " + std::string(to_string(axis)) + ": the other degrees (" +
                                             factors + " = " + total + ") do not divide the " +
                                             count_phrase(devices, "device"));
            return false;
        }
        parallelism.set_degree(axis, static_cast<int>(devices / product));
        return true;
    }
    if (product == 1 && devices > 1) {
        check.add("cluster.topology", "the cluster has " + count_phrase(devices, "device") +
                                            " but no parallel degree is set; add a parallelism section, "
                                            "e.g. 'parallelism: {dp: auto}'");
        return false;
    }
    if (product != devices) {
        const std::string total = product >= cap ? "more than 10000000" : std::to_string(product);
        check.add("parallelism", "the parallel degrees multiply to " + total + " (" + factors +
                                       ") but the cluster has " + count_phrase(devices, "device") + " (" +
                                       topology_shape(scenario.cluster.topology) +
                                       "); change a degree or write one of them as 'auto'");
        return false;
    }
    return true;
}

void check_layout(const Scenario& scenario, ProblemList& check) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    for (const auto& axis : parallel_axis_names) {
        const bool listed = std::find(parallelism.mapping.begin(), parallelism.mapping.end(), axis.value) !=
                            parallelism.mapping.end();
        if (!listed && parallelism.degree(axis.value) > 1) {
            check.add("parallelism.mapping", "parallelism.mapping does not list " + std::string(axis.name) +
                                                   ", whose degree is " +
                                                   std::to_string(parallelism.degree(axis.value)) +
                                                   "; list every axis of degree > 1");
            return;
        }
    }
    const auto layout = ParallelLayout::make(scenario.topology(), parallelism.layout_order());
    if (!layout) check.add("parallelism.mapping", layout.error());
}

// selective_op saves the fused attention kernel's output; unfused, the attention core has none to save.
void check_selective_op(const Scenario& scenario, ProblemList& check) {
    if (scenario.training.attention == Attention::fused) return;
    const std::string why = "selective_op keeps the fused attention kernel's output and recomputes the rest; it needs "
                            "training.attention: fused";
    if (scenario.parallelism.recompute == Recompute::selective_op) check.add("parallelism.recompute", why);
    for (std::size_t i = 0; i < scenario.strategy_tree.size(); ++i) {
        if (scenario.strategy_tree[i].recompute == Recompute::selective_op) {
            check.add("strategy_tree[" + std::to_string(i) + "].recompute", why);
        }
    }
}

// Parallel blocks share one input and one collective: what would split them apart is not modelled.
void check_parallel_blocks(const Scenario& scenario, ProblemList& check) {
    if (!scenario.model.parallel_blocks) return;
    const std::string with = "with model.parallel_blocks the attention and the MLP share one input and one "
                             "tensor-parallel collective; ";
    if (scenario.model.experts > 1) {
        check.add("model.experts", with + "a mixture-of-experts MLP beside the attention is not modelled");
    }
    if (scenario.parallelism.schedule == Schedule::zb_h1) {
        check.add("parallelism.schedule", with + "the zb-h1 schedule's split of each block's backward is not modelled");
    }
    if (scenario.parallelism.recompute == Recompute::selective_op) {
        check.add("parallelism.recompute", with + "selective_op's per-block rule is not modelled (none, selective and "
                                                  "full are)");
    }
    for (std::size_t i = 0; i < scenario.strategy_tree.size(); ++i) {
        const StrategyOverride& entry = scenario.strategy_tree[i];
        if (!entry.recompute) continue;
        const std::optional<NodePath> node = parse_node_path(entry.node);
        if (node && (node->kind == StrategyNodeKind::block || node->kind == StrategyNodeKind::operation)) {
            check.add("strategy_tree[" + std::to_string(i) + "].recompute",
                      with + "recompute them together, on the layer or above, not a block or an operation alone");
        } else if (entry.recompute == Recompute::selective_op) {
            check.add("strategy_tree[" + std::to_string(i) + "].recompute",
                      with + "selective_op's per-block rule is not modelled (none, selective and full are)");
        }
    }
}

void check_transformer(const Scenario& scenario, ProblemList& check) {
    const ModelSpec& model = scenario.model;
    if (model.heads < 1 || model.kv_heads < 1 || model.hidden < 1) return;  // reported where they were read
    const ParallelismSpec& parallelism = scenario.parallelism;
    check_selective_op(scenario, check);
    check_parallel_blocks(scenario, check);
    if (model.head_dim == 0 && model.hidden % model.heads != 0) {
        check.add("model.heads", "hidden " + std::to_string(model.hidden) + " is not divisible by heads " +
                                       std::to_string(model.heads) +
                                       ": each head needs a whole number of dimensions (or give model.head_dim)");
    }
    if (model.kv_heads > model.heads || model.heads % model.kv_heads != 0) {
        check.add("model.kv_heads", "kv_heads " + std::to_string(model.kv_heads) + " must divide heads " +
                                          std::to_string(model.heads) + " (each key/value head serves a group of "
                                          "query heads)");
    }
    if (model.experts == 1 && model.capacity_factor != 1.0) {
        check.add("model.capacity_factor", "capacity_factor applies to mixture-of-experts models; this one is dense "
                                             "(set model.experts)");
    }
    if (model.experts_per_token > model.experts) {
        check.add("model.experts_per_token", "experts_per_token " + std::to_string(model.experts_per_token) +
                                                   " exceeds experts " + std::to_string(model.experts));
    }
    const int tp = parallelism.tp;
    if (model.heads % tp != 0) {
        check.add("parallelism.tp", "tp " + std::to_string(tp) + " does not divide the model's " +
                                          count_phrase(model.heads, "attention head") + "; tensor parallelism gives "
                                          "each rank whole heads");
    } else if (model.kv_heads % tp != 0 && tp % model.kv_heads != 0) {
        check.add("parallelism.tp", "tp " + std::to_string(tp) + " and kv_heads " + std::to_string(model.kv_heads) +
                                          " must divide one another (key/value heads are split or replicated across "
                                          "tensor-parallel ranks)");
    }
    if (model.ffn_hidden % tp != 0) {
        check.add("parallelism.tp", "tp " + std::to_string(tp) + " does not divide ffn_hidden " +
                                          std::to_string(model.ffn_hidden));
    }
    if (parallelism.sequence_parallel && model.seq_len % tp != 0) {
        check.add("parallelism.sequence_parallel", "sequence parallelism splits the sequence across tp: seq_len " +
                                                         std::to_string(model.seq_len) + " is not divisible by tp " +
                                                         std::to_string(tp));
    }
    if (model.seq_len % parallelism.cp != 0) {
        check.add("parallelism.cp", "cp " + std::to_string(parallelism.cp) + " does not divide seq_len " +
                                          std::to_string(model.seq_len));
    }
    if (parallelism.ep > 1 && model.experts % parallelism.ep != 0) {
        check.add("parallelism.ep", model.experts == 1
                                          ? "ep " + std::to_string(parallelism.ep) +
                                                " needs a mixture-of-experts model, but the model is dense "
                                                "(set model.experts)"
                                          : "ep " + std::to_string(parallelism.ep) + " does not divide the " +
                                                count_phrase(model.experts, "expert"));
    }
}

void check_cnn(const Scenario& scenario, ProblemList& check) {
    if (scenario.parallelism.recompute != Recompute::none) {
        check.add("parallelism.recompute", "recompute applies to transformer layers; a CNN model keeps its activations");
    }
    if (scenario.parallelism.zero >= 3) {
        check.add("parallelism.zero", "ZeRO-3 gathers transformer layers' parameters; a CNN model takes zero 0 to 2");
    }
    for (const ParallelAxis axis : {ParallelAxis::tp, ParallelAxis::cp, ParallelAxis::ep}) {
        if (scenario.parallelism.degree(axis) > 1) {
            check.add(axis_path(axis), std::string(to_string(axis)) +
                                             " splits transformer layers; a CNN model is parallelised with dp and pp "
                                             "(its filter, channel and spatial splits are not simulated)");
        }
    }
}

// With interleaving and layers given per stage, each stage spreads its layers over its virtual stages: every virtual
// stage needs one, but for stage 0's first (which runs the embedding) and the last stage's last (the output layer and
// the loss) of a transformer. `shared`: the layers of a stage that gives none.
void check_virtual_stage_layers(const Scenario& scenario, int shared, ProblemList& check) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    const bool transformer = scenario.model.kind == ModelKind::transformer;
    std::map<int, std::size_t> entry_of_stage;  // the strategy_tree entry giving a stage's layers
    for (std::size_t i = 0; i < scenario.strategy_tree.size(); ++i) {
        const NodePath node = *parse_node_path(scenario.strategy_tree[i].node);
        if (node.kind == StrategyNodeKind::stage && scenario.strategy_tree[i].layers) entry_of_stage[node.index] = i;
    }
    for (int stage = 0; stage < parallelism.pp; ++stage) {
        const auto found = entry_of_stage.find(stage);
        const std::optional<std::size_t> entry =
            found == entry_of_stage.end() ? std::nullopt : std::optional<std::size_t>(found->second);
        const int layers = entry ? *scenario.strategy_tree[*entry].layers : shared;
        const bool end = transformer && (stage == 0 || stage == parallelism.pp - 1);
        const int least = parallelism.virtual_stages - (end ? 1 : 0);
        if (layers >= least) continue;
        const std::string where = entry ? "strategy_tree[" + std::to_string(*entry) + "]" : "strategy_tree";
        check.add(where, "stage[" + std::to_string(stage) + "] has " + count_phrase(layers, "layer") + " for its " +
                             std::to_string(parallelism.virtual_stages) + " virtual stages; each needs one" +
                             (transformer ? ", but for stage 0's first (the embedding) and the last stage's last "
                                            "(the output layer and loss)"
                                          : "") +
                             ", so it needs at least " + std::to_string(least));
        return;
    }
}

void check_pipeline(const Scenario& scenario, ProblemList& check) {
    const ParallelismSpec& parallelism = scenario.parallelism;
    const int layers = pipeline_layer_count(scenario.model);
    const int pp = parallelism.pp;
    const std::int64_t chunks = static_cast<std::int64_t>(pp) * parallelism.virtual_stages;

    if (parallelism.micro_batch_group && parallelism.schedule != Schedule::interleaved) {
        const std::string schedule(name_of(parallelism.schedule, schedule_names));
        check.add("parallelism.micro_batch_group", "micro_batch_group groups the interleaved schedule's micro-batches; "
                                                     "the " + schedule + " schedule has no groups");
    }
    if (parallelism.schedule == Schedule::zb_h1) {
        if (scenario.model.kind != ModelKind::transformer) {
            check.add("parallelism.schedule", "the zb-h1 schedule splits a transformer layer's backward into input and "
                                              "weight gradients; a CNN model takes one of the other schedules");
        } else if (parallelism.zero == 3) {
            check.add("parallelism.schedule", "the zb-h1 schedule is modelled with zero 0 to 2: ZeRO-3 would gather "
                                              "each layer's parameters again for its weight gradients");
        }
    }
    const MemorySystemSpec& memory = scenario.cluster.memory_system;
    const auto offload_tier_described = [&](const char* key, OffloadTarget target) {
        if (memory.describes(target)) return;
        const std::string tier(name_of(target, offload_target_names));
        check.add(std::string("parallelism.") + key,
                  std::string(key) + ": " + tier + " needs the cluster's memory_system." + tier +
                      " (its capacity and bandwidth); the cluster describes " +
                      (memory.host || memory.nvme || memory.pool ? "other tiers only" : "no memory system"));
    };
    offload_tier_described("offload_optimizer", parallelism.offload_optimizer);
    if (const OffloadTarget target = parallelism.offload_parameters; target != OffloadTarget::none) {
        offload_tier_described("offload_parameters", target);
        if (parallelism.zero != 3) {
            check.add("parallelism.offload_parameters",
                      "offload_parameters moves each layer's ZeRO-3 shard in before the layer gathers it "
                      "(ZeRO-Infinity); it needs zero: 3, and zero is " + std::to_string(parallelism.zero));
        } else if (target == OffloadTarget::pool && memory.pool && memory.pool->in_switch_collectives) {
            // The pool's switches gather what every GPU of the cluster loads (pool_transfer.h): that is a layer's
            // whole only where ZeRO-3 shards it over all of them.
            const std::int64_t devices = scenario.device_count();
            const std::int64_t shards = static_cast<std::int64_t>(parallelism.dp) * parallelism.cp;
            if (shards != devices) {
                check.add("parallelism.offload_parameters",
                          "the pool's in-switch collectives gather a load over every one of the cluster's " +
                              std::to_string(devices) + " devices, but ZeRO-3 shards each layer over dp × cp = " +
                              std::to_string(shards) + " of them: run the layers' shards over all devices, or set "
                              "cluster.memory_system.pool.in_switch_collectives: false");
            }
        }
    }
    if (const OffloadTarget target = parallelism.offload_gradients; target != OffloadTarget::none) {
        offload_tier_described("offload_gradients", target);
        if (parallelism.zero < 2) {
            check.add("parallelism.offload_gradients",
                      "offload_gradients stores each device's shard of the gradients once a reduce-scatter has made "
                      "it (ZeRO-Offload); it needs zero: 2 or 3, and zero is " + std::to_string(parallelism.zero));
        } else if (target == OffloadTarget::pool && memory.pool && memory.pool->in_switch_collectives) {
            // The switches reduce-scatter what every GPU of the cluster stores: the gradients' reduction only where
            // it spans all of them — the dense gradients' dp × cp × ep, and experts' dp × cp where there are experts.
            const std::int64_t devices = scenario.device_count();
            const std::int64_t data = static_cast<std::int64_t>(parallelism.dp) * parallelism.cp;
            const std::int64_t dense = data * parallelism.ep;
            const bool experts = scenario.model.experts > 1;
            if (dense != devices || (experts && data != devices)) {
                check.add("parallelism.offload_gradients",
                          "the pool's in-switch collectives reduce-scatter a store over every one of the cluster's " +
                              std::to_string(devices) + " devices, but the gradients are reduced over " +
                              (dense != devices ? "dp × cp × ep = " + std::to_string(dense)
                                                : "dp × cp = " + std::to_string(data) + " (the experts')") +
                              " of them: reduce them over all devices, or set "
                              "cluster.memory_system.pool.in_switch_collectives: false");
            }
        }
    }
    if (parallelism.optimizer_step_on == OptimizerStepPlace::host) {
        // ZeRO-Offload's step: the host's CPUs update the states where they are kept, from gradients stored there.
        const auto needs_host = [&](const char* key, OffloadTarget target, const char* what) {
            if (target == OffloadTarget::host) return;
            check.add("parallelism.optimizer_step_on",
                      std::string("an optimizer step on the host updates ") + what + " in host memory: set " + key +
                          ": host (it is " + std::string(name_of(target, offload_target_names)) + ")");
        };
        needs_host("offload_optimizer", parallelism.offload_optimizer, "the optimizer's states kept");
        needs_host("offload_gradients", parallelism.offload_gradients, "them from the gradient shards stored");
        if (parallelism.offload_parameters != OffloadTarget::none && parallelism.offload_parameters != OffloadTarget::host) {
            check.add("parallelism.optimizer_step_on",
                      "an optimizer step on the host writes the updated parameters in host memory, but offload_parameters "
                      "keeps them in " + std::string(offload_target_words(parallelism.offload_parameters)) +
                          ": keep them on the device or in host memory");
        }
        if (memory.host && memory.host->memory_bandwidth_Bps <= 0.0) {
            check.add("parallelism.optimizer_step_on",
                      "an optimizer step on the host streams the states through the host's CPU memory: give "
                      "cluster.memory_system.host.memory_bandwidth (e.g. 409.6 GB/s for two 8-channel DDR4-3200 "
                      "sockets)");
        }
    }
    if (parallelism.p2p_rendezvous && pp > 1 && parallelism.schedule != Schedule::gpipe &&
        parallelism.schedule != Schedule::one_f_one_b) {
        check.add("parallelism.schedule",
                  "p2p_rendezvous pairs each pipeline send with its receive as DeepSpeed's pipeline engine does, "
                  "which runs GPipe and 1F1B orders only; the " + std::string(name_of(parallelism.schedule, schedule_names)) +
                      " schedule would deadlock on it (the deepspeed stack sets it: write p2p_rendezvous: false to "
                      "run this schedule)");
    }
    if (parallelism.schedule == Schedule::interleaved) {
        if (parallelism.virtual_stages < 2) {
            check.add("parallelism.virtual_stages", "the interleaved schedule needs virtual_stages of at least 2");
        }
        if (pp < 2) check.add("parallelism.schedule", "the interleaved schedule needs pp of at least 2");
    } else if (parallelism.virtual_stages > 1) {
        check.add("parallelism.virtual_stages", "virtual_stages > 1 needs schedule: interleaved");
    }

    int given_layers = 0;
    int stages_given = 0;
    for (std::size_t i = 0; i < scenario.strategy_tree.size(); ++i) {
        const StrategyOverride& entry = scenario.strategy_tree[i];
        const std::string path = "strategy_tree[" + std::to_string(i) + "]";
        const NodePath node = *parse_node_path(entry.node);
        if (node.kind == StrategyNodeKind::block || node.kind == StrategyNodeKind::operation) {
            const bool operation = node.kind == StrategyNodeKind::operation;
            if (scenario.model.kind != ModelKind::transformer) {
                check.add(path, "node " + in_quotes(entry.node) + " names a transformer " +
                                      (operation ? "operation" : "block") + ", but the model is a CNN");
            } else if (node.index >= layers) {
                check.add(path,
                          "node " + in_quotes(entry.node) + " does not exist: the model has " + layer_range(layers));
            } else if (operation && (entry.recompute == Recompute::selective ||
                                     entry.recompute == Recompute::selective_op)) {
                check.add(path, entry.recompute == Recompute::selective
                                    ? "an operation is recomputed (full) or not (none); selective names a set of "
                                      "operations (the attention core) and applies to blocks and above"
                                    : "an operation is recomputed (full) or not (none); selective_op is a rule for "
                                      "all of a block's operations and applies to blocks and above");
            } else if (node.block == LayerBlock::mlp && entry.recompute == Recompute::selective) {
                check.add(path, "selective recompute redoes the attention core; an MLP block is recomputed fully "
                                  "or not at all");
            }
            continue;
        }
        if (node.kind == StrategyNodeKind::layer) {
            if (node.index >= layers) {
                check.add(path,
                          "node " + in_quotes(entry.node) + " does not exist: the model has " + layer_range(layers));
            }
            continue;
        }
        if (node.index >= pp) {
            check.add(path, "node " + in_quotes(entry.node) + " does not exist: pp is " + std::to_string(pp) +
                                  ", so stages are stage[0] to stage[" + std::to_string(pp - 1) + "]");
            continue;
        }
        if (entry.layers) {
            given_layers += *entry.layers;
            ++stages_given;
        }
        const std::int64_t micro_batches = scenario.micro_batches();
        if (entry.max_ongoing_micro_batches && parallelism.schedule != Schedule::one_f_one_b) {
            check.add(path, "max_ongoing_micro_batches caps a 1f1b schedule's warm-up; the " +
                                  std::string(name_of(parallelism.schedule, schedule_names)) +
                                  " schedule cannot honour it");
        }
        if (entry.micro_batches && *entry.micro_batches != micro_batches) {
            check.add(path, "every pipeline stage runs the iteration's " +
                                  count_phrase(micro_batches, "micro-batch", "micro-batches") +
                                  " (global_batch / (dp x ep x micro_batch)); " + shortened(entry.node) +
                                  " cannot run " + std::to_string(*entry.micro_batches));
        }
    }
    const int virtual_stages = static_cast<int>(chunks / pp);
    const std::string split =
        virtual_stages > 1 ? "pp x virtual_stages = " + std::to_string(chunks) : "pp " + std::to_string(pp);
    if (stages_given > 0) {
        if (layers < pp) {
            check.add("parallelism.pp", "pp " + std::to_string(pp) + " is more than the model's " +
                                              count_phrase(layers, "layer") + ": every stage needs at least one layer");
            return;
        }
        const int free_stages = pp - stages_given;
        const int remaining = layers - given_layers;
        if (remaining < 0 || (free_stages == 0 && remaining != 0)) {
            check.add("strategy_tree", "the stages' layers add up to " + std::to_string(given_layers) +
                                             " but the model has " + std::to_string(layers));
        } else if (free_stages > 0 && (remaining < free_stages || remaining % free_stages != 0)) {
            check.add("strategy_tree", "after the " + count_phrase(given_layers, "layer") + " given to " +
                                             count_phrase(stages_given, "stage") + ", the other " +
                                             count_phrase(free_stages, "stage") + " cannot share the remaining " +
                                             count_phrase(remaining, "layer") + " evenly; give their layers too");
        } else if (virtual_stages > 1) {
            check_virtual_stage_layers(scenario, free_stages > 0 ? remaining / free_stages : 0, check);
        }
        return;
    }
    if (layers < chunks) {
        check.add("parallelism.pp", split + " is more than the model's " + count_phrase(layers, "layer") +
                                          ": every stage needs at least one layer");
        return;
    }
    if (layers % chunks != 0) {
        check.add("parallelism.pp", split + " does not divide the model's " + count_phrase(layers, "layer") +
                                          "; choose a divisor or give layers per stage in strategy_tree, e.g. "
                                          "{node: \"stage[0]\", layers: " +
                                          std::to_string(layers / chunks) + "}");
    }
}

// Megatron-Core's interleaved schedule (pipeline_parallel/schedules.py) runs micro-batches in groups of N
// (microbatch_group_size_per_vp_stage, pp by default) with pp ≤ N ≤ m, and refuses a last group of fewer than pp:
// its forwards could not leave the last stage before the first stage needs them (the schedule deadlocks).
void check_micro_batch_groups(const ParallelismSpec& parallelism, std::int64_t micro_batches, ProblemList& check) {
    const int pp = parallelism.pp;
    const std::int64_t group = parallelism.micro_batch_group.value_or(pp);
    const bool given = parallelism.micro_batch_group.has_value();
    const std::string field = given ? "parallelism.micro_batch_group" : "training.global_batch";
    const std::string groups = "the interleaved schedule runs micro-batches in groups of " + std::to_string(group) +
                               (given ? " (micro_batch_group)" : " (micro_batch_group, pp by default)");
    if (group < pp) {
        check.add(field, "micro_batch_group " + std::to_string(group) + " is less than pp " + std::to_string(pp) +
                             ": a group must fill the pipeline");
    } else if (micro_batches < group) {
        check.add(field, groups + " and needs at least one group, but a replica has " +
                             count_phrase(micro_batches, "micro-batch", "micro-batches"));
    } else if (const std::int64_t last = micro_batches % group; last > 0 && last < pp) {
        std::int64_t fits = pp;
        while (micro_batches % fits != 0 && micro_batches % fits < pp) ++fits;
        check.add(field, groups + ": the " + count_phrase(micro_batches, "micro-batch", "micro-batches") +
                             " per replica leave a last group of " + std::to_string(last) + ", fewer than pp " +
                             std::to_string(pp) + ", which stalls the pipeline; set parallelism.micro_batch_group to " +
                             std::to_string(fits) + " (or a batch a multiple of it)");
    }
}

void check_batch(const Scenario& scenario, ProblemList& check) {
    const TrainingSpec& training = scenario.training;
    const ParallelismSpec& parallelism = scenario.parallelism;
    const std::int64_t per_step = scenario.data_replicas() * training.micro_batch;
    if (training.global_batch % per_step != 0) {
        const std::string replicas = parallelism.ep > 1 ? "dp x ep x micro_batch = " + std::to_string(parallelism.dp) +
                                                              " x " + std::to_string(parallelism.ep) + " x "
                                                        : "dp x micro_batch = " + std::to_string(parallelism.dp) + " x ";
        check.add("training.global_batch", "global_batch " + std::to_string(training.global_batch) +
                                                 " is not divisible by " + replicas +
                                                 std::to_string(training.micro_batch) + " = " +
                                                 std::to_string(per_step));
        return;
    }
    const std::int64_t micro_batches = training.global_batch / per_step;
    if (parallelism.schedule == Schedule::interleaved) check_micro_batch_groups(parallelism, micro_batches, check);
}

void check_device(const Scenario& scenario, ProblemList& check) {
    const DeviceSpec& device = scenario.cluster.device;
    if (device.peak_flops.count(scenario.training.dtype) == 0) {
        std::string listed;
        for (const auto& [dtype, flops] : device.peak_flops) {
            listed += (listed.empty() ? "" : ", ") + std::string(name_of(dtype, dtype_names));
        }
        check.add("training.dtype", "device " + shortened(device.name) + " has no " +
                                          std::string(name_of(scenario.training.dtype, dtype_names)) +
                                          " peak (it lists " + listed + ")");
    }
}

}  // namespace

void check_cross_section(Scenario& scenario, ProblemList& check) {
    check_device(scenario, check);
    if (!check_degrees(scenario, check)) return;
    check_layout(scenario, check);
    if (scenario.model.kind == ModelKind::transformer) {
        check_transformer(scenario, check);
    } else {
        check_cnn(scenario, check);
    }
    check_pipeline(scenario, check);
    check_batch(scenario, check);
    check_what_if_targets(scenario, check);
}

}  // namespace parasight
