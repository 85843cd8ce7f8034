#pragma once
// tests/data/cli/small_pipeline.yaml for the widget suites: opened in a document, and the document's scenario
// simulated into the result the runner would hand the views (make_result: with its timeline's derived indexes).

#include "document/scenario_document.h"
#include "run/simulation_result.h"

#include <QString>

#include <memory>

namespace parasight::testing {

[[nodiscard]] inline bool open_small_pipeline(gui::ScenarioDocument& document) {
    Diagnostics problems;
    return document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems);
}

// Null when the document is invalid or the simulation fails.
[[nodiscard]] inline std::shared_ptr<const gui::SimulationResult> simulated_result(const gui::ScenarioDocument& document) {
    const auto scenario = document.validated();
    if (!scenario) return nullptr;
    auto simulation = simulate(*scenario, SimulateOptions{});
    if (!simulation) return nullptr;
    return gui::make_result(scenario, std::move(simulation).value(), PhaseProgress(nullptr, SimulationPhase::analysis));
}

}  // namespace parasight::testing
