#pragma once
// tests/data/cli/small_pipeline.yaml (a 4-layer transformer, tp 2 · dp 2 · pp 2 on two 4-NPU switches, 1F1B, 4
// micro-batches a pipeline) simulated on every device with its events and memory over time: what the playhead's
// tests step through.

#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <memory>

namespace parasight::testing {

inline std::shared_ptr<const Timeline> small_pipeline_timeline() {
    static const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = true;
    options.record_memory_timeline = true;
    options.timeline = TimelineDetail::events;
    auto simulation = simulate(*loaded.scenario, options);
    return simulation ? simulation->timeline : nullptr;
}

}  // namespace parasight::testing
