#include "oracle/paradl_oracle.h"

#include "units/quantity.h"

#include <algorithm>

namespace parasight {
namespace {

struct Sums {
    double forward_backward_s = 0.0;  // Σ (FW_i + BW_i)
    double update_s = 0.0;            // Σ WU_i
    double weights = 0.0;             // Σ |w_i|
};

Sums sums_of(const std::vector<OracleLayer>& layers) {
    Sums sums;
    for (const OracleLayer& layer : layers) {
        sums.forward_backward_s += layer.forward_s + layer.backward_s;
        sums.update_s += layer.update_s;
        sums.weights += layer.weights;
    }
    return sums;
}

// γδ Σ (2·(B/batch_split)·(|x_i| + |y_i|) + 2·|w_i|/weight_split + |b_i|) over layers [first, last).
double memory_bytes(const OracleProblem& problem, std::size_t first, std::size_t last, double batch_split,
                    double weight_split) {
    double elements = 0.0;
    for (std::size_t i = first; i < last; ++i) {
        const OracleLayer& layer = problem.layers[i];
        elements += 2.0 * problem.batch / batch_split * (layer.input_elements + layer.output_elements) +
                    2.0 * layer.weights / weight_split + layer.biases;
    }
    return problem.memory_overhead * problem.element_bytes * elements;
}

// A ring all-reduce of the weights over `ranks` PEs, per iteration: 2·(ranks − 1)·(α + Σ|w_i|/ranks_in_all·δβ).
double weight_all_reduce_s(const OracleProblem& problem, double ranks, double weights_share) {
    return 2.0 * (ranks - 1.0) * (problem.alpha_s + weights_share * problem.element_bytes * problem.beta_s_per_byte);
}

// Filter and channel parallelism exchange every layer's output but the last, three times per iteration (forward
// all-gather, backward all-gather and reduce): 3·(ranks − 1)·Σ_{i<G} (α + B·|y_i|/p·δβ).
double activation_exchange_s(const OracleProblem& problem, double ranks, double p) {
    double per_rank = 0.0;
    for (std::size_t i = 0; i + 1 < problem.layers.size(); ++i) {
        const double elements = problem.batch * problem.layers[i].output_elements / p;
        per_rank += problem.alpha_s + elements * problem.element_bytes * problem.beta_s_per_byte;
    }
    return 3.0 * (ranks - 1.0) * per_rank;
}

// Spatial parallelism's halo exchange per iteration, forward (the input's border) and backward (the output
// gradient's): Σ_i (2α + samples·(halo(|x_i|) + halo(dL/dy_i))·δβ).
double halo_exchange_s(const OracleProblem& problem, double samples, std::int64_t pw, std::int64_t ph) {
    double total = 0.0;
    for (const OracleLayer& layer : problem.layers) {
        if (!layer.spatial) continue;
        const double halo = halo_elements(layer.channels, layer.width, layer.height, layer.kernel, pw, ph) +
                            halo_elements(layer.filters, layer.output_width, layer.output_height, layer.kernel, pw, ph);
        total += 2.0 * problem.alpha_s + samples * halo * problem.element_bytes * problem.beta_s_per_byte;
    }
    return total;
}

// The first layer with the least `get`, among those `counts`; null when none counts.
template <class Get, class Counts>
const OracleLayer* smallest(const std::vector<OracleLayer>& layers, Get get, Counts counts) {
    const OracleLayer* least = nullptr;
    for (const OracleLayer& layer : layers) {
        if (counts(layer) && (least == nullptr || get(layer) < get(*least))) least = &layer;
    }
    return least;
}

template <class Get>
const OracleLayer& smallest(const std::vector<OracleLayer>& layers, Get get) {
    return *smallest(layers, get, [](const OracleLayer&) { return true; });
}

std::string text(double value) { return units::format_number(value); }
std::string text(std::int64_t value) { return units::format_number(static_cast<double>(value)); }

// Why a pw × ph grid cannot split every spatial layer (the Table 1 limit p ≤ min W×H, and a grid no wider or taller
// than the narrowest or shortest activation it cuts), or nothing. `what` names the grid's PEs ("p", "p2").
std::optional<OracleLimit> grid_problem(const std::vector<OracleLayer>& layers, std::int64_t pw, std::int64_t ph,
                                        const std::string& what) {
    if (pw * ph == 1) return std::nullopt;
    const auto spatial = [](const OracleLayer& l) { return l.spatial; };
    const OracleLayer* area = smallest(layers, [](const OracleLayer& l) { return l.width * l.height; }, spatial);
    if (area == nullptr) return OracleLimit{"no image", "no layer has an image to split"};
    if (pw * ph > area->width * area->height) {
        const std::string bound = "min W×H = " + text(area->width * area->height);
        return OracleLimit{what + " ≤ " + bound, what + " = " + text(pw * ph) + " > " + bound + " (" + area->name +
                                                     "): every PE needs a pixel of the smallest activation"};
    }
    const OracleLayer* narrowest = smallest(layers, [](const OracleLayer& l) { return l.width; }, spatial);
    if (pw > narrowest->width) {
        return OracleLimit{"pw ≤ min W = " + text(narrowest->width),
                           "the grid's " + text(pw) + " columns are more than the " + text(narrowest->width) + " of " +
                               narrowest->name + "'s input"};
    }
    const OracleLayer* shortest = smallest(layers, [](const OracleLayer& l) { return l.height; }, spatial);
    if (ph > shortest->height) {
        return OracleLimit{"ph ≤ min H = " + text(shortest->height),
                           "the grid's " + text(ph) + " rows are more than the " + text(shortest->height) + " of " +
                               shortest->name + "'s input"};
    }
    return std::nullopt;
}

OracleLimit more_groups_than_samples(double groups, double batch) {
    return OracleLimit{"p1 ≤ B = " + text(batch),
                       "p1 = " + text(groups) + " > B = " + text(batch) + ": every data-parallel group needs a sample"};
}

// A product of parts that is not the p it should be: an arrangement no caller should make.
OracleLimit not_p(const std::string& parts, double product) {
    return OracleLimit{parts + " = p", parts + " = " + text(product) + " is not p"};
}

// Layer parallelism over p stages (Table 1, row "Layer (Pipeline)"), in each of `replicas` data-parallel copies that
// share the epoch: the layers in p contiguous groups as even in count as they go (the first ones one larger); each
// copy runs D/replicas samples as S/replicas segments of B/S. The paper's row multiplies max WU by D(p + S − 1)/S as
// well, which would update the weights for every sample; the update runs once per iteration, as in every other row.
struct Pipeline {
    double compute_s = 0.0;
    double communication_s = 0.0;
    double memory_bytes = 0.0;
    double stage_weights = 0.0;  // the most weights a stage holds
    double bubble_s = 0.0;       // of compute_s: the fill and drain
};

Pipeline pipeline_of(const OracleProblem& problem, std::int64_t p, double replicas) {
    const std::size_t G = problem.layers.size();
    const double B = problem.batch;
    const double S = problem.micro_batches;
    double forward = 0.0, backward = 0.0, update = 0.0, exchange = 0.0;
    Pipeline pipeline;
    std::size_t first = 0;
    for (std::int64_t g = 0; g < p && first < G; ++g) {
        const std::size_t size =
            G / static_cast<std::size_t>(p) + (static_cast<std::size_t>(g) < G % static_cast<std::size_t>(p) ? 1 : 0);
        double group_forward = 0.0, group_backward = 0.0, group_update = 0.0, group_weights = 0.0;
        for (std::size_t i = first; i < first + size; ++i) {
            group_forward += problem.layers[i].forward_s;
            group_backward += problem.layers[i].backward_s;
            group_update += problem.layers[i].update_s;
            group_weights += problem.layers[i].weights;
        }
        forward = std::max(forward, group_forward);
        backward = std::max(backward, group_backward);
        update = std::max(update, group_update);
        pipeline.stage_weights = std::max(pipeline.stage_weights, group_weights);
        pipeline.memory_bytes =
            std::max(pipeline.memory_bytes, memory_bytes(problem, first, first + size, replicas, 1.0));
        if (g + 1 < p) {  // the group's output goes to the next, a segment of B/S samples at a time
            const double elements = B / S * problem.layers[first + size - 1].output_elements;
            exchange = std::max(exchange, problem.alpha_s + elements * problem.element_bytes * problem.beta_s_per_byte);
        }
        first += size;
    }
    const double D = problem.samples;
    const auto stages = static_cast<double>(p);
    const double segments = S / replicas;  // each copy's
    pipeline.compute_s = D / replicas * (stages + segments - 1.0) / segments * (forward + backward) +
                         D / B * update;
    pipeline.bubble_s = D / replicas * (stages - 1.0) / segments * (forward + backward);
    pipeline.communication_s = 2.0 * D / replicas * (stages + segments - 2.0) / (B / replicas) * exchange;
    return pipeline;
}

std::optional<OracleLimit> too_many_stages(std::int64_t p, std::size_t G) {
    if (p <= static_cast<std::int64_t>(G)) return std::nullopt;
    const std::string layers = text(static_cast<std::int64_t>(G));
    return OracleLimit{"p ≤ G = " + layers, "p = " + text(p) + " > G = " + layers + " layers"};
}

}  // namespace

double halo_elements(std::int64_t channels, std::int64_t width, std::int64_t height, std::int64_t kernel,
                     std::int64_t pw, std::int64_t ph) {
    const double reach = static_cast<double>(kernel / 2);
    if (reach == 0.0 || pw * ph == 1) return 0.0;
    const double tile_width = static_cast<double>(width) / static_cast<double>(pw);
    const double tile_height = static_cast<double>(height) / static_cast<double>(ph);
    // Rows from the tiles above and below (when the grid has rows), columns from left and right.
    const double rows = ph > 1 ? 2.0 * reach * tile_width : 0.0;
    const double columns = pw > 1 ? 2.0 * reach * tile_height : 0.0;
    return static_cast<double>(channels) * (rows + columns);
}

OracleEstimate oracle_estimate(const OracleProblem& problem, OracleStrategy strategy, const OraclePes& pes) {
    OracleEstimate estimate;
    if (problem.layers.empty()) {
        estimate.ruled_out = OracleLimit{"G ≥ 1", "the model has no layers"};
        return estimate;
    }
    const Sums sums = sums_of(problem.layers);
    const double D = problem.samples;
    const double B = problem.batch;
    const double iterations = D / B;
    const auto p = static_cast<double>(pes.p);
    const std::size_t G = problem.layers.size();
    switch (strategy) {
    case OracleStrategy::serial:  // Table 1, row "Serial"
        estimate.compute_s = D * sums.forward_backward_s + iterations * sums.update_s;
        estimate.memory_bytes = memory_bytes(problem, 0, G, 1.0, 1.0);
        if (pes.p != 1) estimate.ruled_out = OracleLimit{"p = 1", "serial training runs on p = 1"};
        break;
    case OracleStrategy::data:  // Table 1, row "Data"
        estimate.compute_s = D / p * sums.forward_backward_s + iterations * sums.update_s;
        estimate.communication_s = iterations * weight_all_reduce_s(problem, p, sums.weights / p);
        estimate.memory_bytes = memory_bytes(problem, 0, G, p, 1.0);
        if (p > B) {
            estimate.ruled_out =
                OracleLimit{"p ≤ B = " + text(B), "p = " + text(p) + " > B = " + text(B) + ": every PE needs a sample"};
        }
        break;
    case OracleStrategy::spatial: {  // Table 1, row "Spatial"
        estimate.compute_s = D / p * sums.forward_backward_s + iterations * sums.update_s;
        estimate.communication_s = iterations * (weight_all_reduce_s(problem, p, sums.weights / p) +
                                                 2.0 * halo_exchange_s(problem, B, pes.pw, pes.ph));
        estimate.memory_bytes = memory_bytes(problem, 0, G, p, 1.0);
        if (pes.pw * pes.ph != pes.p) {
            estimate.ruled_out = not_p("the grid pw × ph", static_cast<double>(pes.pw * pes.ph));
        } else {
            estimate.ruled_out = grid_problem(problem.layers, pes.pw, pes.ph, "p");
        }
        break;
    }
    case OracleStrategy::layer: {  // Table 1, row "Layer (Pipeline)"
        const Pipeline pipeline = pipeline_of(problem, pes.p, 1.0);
        estimate.compute_s = pipeline.compute_s;
        estimate.bubble_s = pipeline.bubble_s;
        estimate.communication_s = pipeline.communication_s;
        estimate.memory_bytes = pipeline.memory_bytes;
        estimate.ruled_out = too_many_stages(pes.p, G);
        break;
    }
    case OracleStrategy::data_layer: {
        // Not a row of the paper's Table 1: p1 replicas of a p2-stage pipeline, the layer row with each replica's
        // D/p1 samples in segments of B/S, then the data row's all-reduce of a stage's weights over the p1 replicas.
        const auto p1 = static_cast<double>(pes.p1);
        const Pipeline pipeline = pipeline_of(problem, pes.p2, p1);
        estimate.compute_s = pipeline.compute_s;
        estimate.bubble_s = pipeline.bubble_s;
        estimate.communication_s =
            pipeline.communication_s + iterations * weight_all_reduce_s(problem, p1, pipeline.stage_weights / p1);
        estimate.memory_bytes = pipeline.memory_bytes;
        if (pes.p1 * pes.p2 != pes.p) {
            estimate.ruled_out = not_p("p1 × p2", p1 * static_cast<double>(pes.p2));
        } else if (p1 > B) {
            estimate.ruled_out = more_groups_than_samples(p1, B);
        } else if (p1 > problem.micro_batches) {
            const std::string segments = text(problem.micro_batches);
            estimate.ruled_out = OracleLimit{"p1 ≤ S = " + segments, "p1 = " + text(p1) + " > S = " + segments +
                                                                         ": every replica needs a segment"};
        } else {
            estimate.ruled_out = too_many_stages(pes.p2, G);
        }
        break;
    }
    case OracleStrategy::filter:     // Table 1, row "Filter"
    case OracleStrategy::channel: {  // Table 1, row "Channel": the same costs, another limit
        estimate.compute_s = D / p * sums.forward_backward_s + D / (B * p) * sums.update_s;
        estimate.communication_s = iterations * activation_exchange_s(problem, p, p);
        estimate.memory_bytes = memory_bytes(problem, 0, G, 1.0, p);
        const bool filter = strategy == OracleStrategy::filter;
        const OracleLayer& least = filter ? smallest(problem.layers, [](const OracleLayer& l) { return l.filters; })
                                          : smallest(problem.layers, [](const OracleLayer& l) { return l.channels; });
        const std::int64_t bound = filter ? least.filters : least.channels;
        if (pes.p > bound) {
            const std::string limit = std::string("min ") + (filter ? "F" : "C") + " = " + text(bound);
            estimate.ruled_out = OracleLimit{"p ≤ " + limit, "p = " + text(p) + " > " + limit + " (" + least.name +
                                                                 "): every PE needs a " +
                                                                 (filter ? "filter" : "channel") + " of every layer"};
        }
        break;
    }
    case OracleStrategy::data_filter: {  // Table 1, row "Data + Filter": p = p1 (data) × p2 (filter)
        const auto p1 = static_cast<double>(pes.p1);
        const auto p2 = static_cast<double>(pes.p2);
        estimate.compute_s = D / p * sums.forward_backward_s + D / (B * p2) * sums.update_s;
        estimate.communication_s = iterations * (activation_exchange_s(problem, p2, p) +
                                                 weight_all_reduce_s(problem, p1, sums.weights / p));
        estimate.memory_bytes = memory_bytes(problem, 0, G, p1, p2);
        const OracleLayer& least = smallest(problem.layers, [](const OracleLayer& l) { return l.filters; });
        if (pes.p1 * pes.p2 != pes.p) {
            estimate.ruled_out = not_p("p1 × p2", p1 * p2);
        } else if (p1 > B) {
            estimate.ruled_out = more_groups_than_samples(p1, B);
        } else if (pes.p2 > least.filters) {
            const std::string limit = "min F = " + text(least.filters);
            estimate.ruled_out =
                OracleLimit{"p2 ≤ " + limit, "p2 = " + text(p2) + " > " + limit + " (" + least.name + ")"};
        }
        break;
    }
    case OracleStrategy::data_spatial: {
        // Not a row of the paper's Table 1: the data row over p1 groups composed with the spatial row inside each
        // (a pw × ph grid of p2 PEs, each group with B/p1 samples).
        const auto p1 = static_cast<double>(pes.p1);
        estimate.compute_s = D / p * sums.forward_backward_s + iterations * sums.update_s;
        estimate.communication_s = iterations * (weight_all_reduce_s(problem, p, sums.weights / p) +
                                                 2.0 * halo_exchange_s(problem, B / p1, pes.pw, pes.ph));
        estimate.memory_bytes = memory_bytes(problem, 0, G, p, 1.0);
        if (pes.p1 * pes.p2 != pes.p || pes.pw * pes.ph != pes.p2) {
            estimate.ruled_out = not_p("p1 × pw × ph", p1 * static_cast<double>(pes.pw * pes.ph));
        } else if (p1 > B) {
            estimate.ruled_out = more_groups_than_samples(p1, B);
        } else {
            estimate.ruled_out = grid_problem(problem.layers, pes.pw, pes.ph, "p2");
        }
        break;
    }
    }
    return estimate;
}

}  // namespace parasight
