#include "compile/memory_lower_bound.h"

#include "compile/stage_parameters.h"
#include "model/layer_operations.h"

namespace parasight {

MemoryLowerBound memory_lower_bound(const ValidatedScenario& validated) {
    const Scenario& scenario = validated.value();
    const StrategyTree tree(validated);
    std::vector<CnnLayerWork> cnn_layers;
    if (scenario.model.kind == ModelKind::cnn) {
        const Dtype dtype = scenario.training.dtype;
        cnn_layers = cnn_layer_work(scenario.model, scenario.training.micro_batch, dtype_bytes(dtype));
    }
    MemoryLowerBound bound;
    bound.capacity_bytes = scenario.cluster.device.memory_bytes;
    for (int stage = 0; stage < tree.stage_count(); ++stage) {
        const double bytes = stage_model_states(scenario, tree, cnn_layers, stage).total_bytes();
        if (bytes > bound.needed_bytes) {
            bound.needed_bytes = bytes;
            bound.stage = stage;
        }
    }
    return bound;
}

}  // namespace parasight
