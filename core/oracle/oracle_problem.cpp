#include "oracle/oracle_problem.h"

#include "device/compute_model.h"
#include "model/cnn_layers.h"
#include "model/layer_operations.h"
#include "model/model_states.h"

#include <algorithm>

namespace parasight {

Expected<OracleProblem> oracle_problem(const ValidatedScenario& validated) {
    const Scenario& scenario = validated.value();
    if (scenario.model.kind != ModelKind::cnn) {
        return Error{"the oracle's closed forms are for CNN models (ParaDL); " + scenario.model.name +
                     " is a transformer"};
    }
    const TrainingSpec& training = scenario.training;
    const double micro_batch = training.micro_batch;
    const ComputeModel compute = make_compute_model(scenario);
    OracleProblem problem;
    for (const CnnLayerWork& work : cnn_layer_work(scenario.model, micro_batch, dtype_bytes(training.dtype))) {
        OracleLayer layer;
        layer.name = work.name;
        layer.input_elements = static_cast<double>(work.input.elements());
        layer.output_elements = static_cast<double>(work.output.elements());
        layer.weights = work.parameters - work.biases;
        layer.biases = work.biases;
        const bool fc = work.type == CnnLayerType::fc;
        // An fc layer's filters are its outputs and its channels its inputs; pooling keeps the channels.
        layer.channels = fc ? work.input.elements() : work.input.channels;
        layer.filters = fc ? work.output.elements() : work.output.channels;
        layer.width = work.input.width;
        layer.height = work.input.height;
        layer.output_width = work.output.width;
        layer.output_height = work.output.height;
        layer.kernel = work.kernel;
        layer.spatial = !fc;
        layer.forward_s = compute.time_s(work.operation.name, Pass::forward, work.operation.forward) / micro_batch;
        layer.backward_s = compute.time_s(work.operation.name, Pass::backward, work.operation.backward) / micro_batch;
        // The optimizer step as the simulation runs it (a memory-bound pass over the parameters' states).
        const double step_bytes = optimizer_step_bytes(work.parameters, training);
        layer.update_s =
            compute.time_s("optimizer", Pass::forward, OperationWork{.flops = 0.0, .memory_bytes = step_bytes});
        problem.layers.push_back(std::move(layer));
    }
    problem.batch = static_cast<double>(training.global_batch);
    problem.samples = static_cast<double>(training.dataset_samples.value_or(training.global_batch));
    problem.micro_batches = problem.batch / micro_batch;
    problem.element_bytes = storage_element_bytes(training.dtype);
    problem.memory_overhead = 1.0;
    problem.memory_capacity_bytes = scenario.cluster.device.memory_bytes;
    return problem;
}

OracleNetwork oracle_network(const std::vector<Dimension>& topology, std::int64_t p) {
    OracleNetwork network;
    if (p <= 1 || topology.empty()) return network;
    double least_bandwidth = 0.0;
    std::int64_t spanned = 1;
    for (const Dimension& dimension : topology) {
        if (dimension.size == 1) continue;  // no link to cross
        const double bandwidth = achievable_bandwidth_Bps(dimension);
        least_bandwidth = network.dimensions == 0 ? bandwidth : std::min(least_bandwidth, bandwidth);
        network.alpha_s = std::max(network.alpha_s, step_latency_s(dimension, 1));
        ++network.dimensions;
        spanned *= dimension.size;
        if (spanned >= p) break;
    }
    network.beyond_cluster = spanned < p;
    network.beta_s_per_byte = least_bandwidth > 0.0 ? 1.0 / least_bandwidth : 0.0;
    return network;
}

}  // namespace parasight
