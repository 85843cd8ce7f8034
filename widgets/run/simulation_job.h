#pragma once
// The window's simulation as a job for a JobRunner (run/job_runner.h): the core's simulate() and what the views read
// of its timeline (make_result), both on the worker; progress over the whole run on one bar, each phase weighted by
// its usual share of the time.

#include "run/job_runner.h"
#include "run/simulation_result.h"

#include <functional>
#include <memory>

namespace parasight::gui {

// The result (its `job` the job's id), or why there is none.
using SimulationOutcome = Expected<std::shared_ptr<const SimulationResult>, SimulationError>;

[[nodiscard]] std::function<SimulationOutcome(JobRunner::Context&)> simulation_work(
    std::shared_ptr<const ValidatedScenario> scenario, SimulateOptions options);

}  // namespace parasight::gui

Q_DECLARE_METATYPE(std::shared_ptr<const parasight::gui::SimulationResult>)
