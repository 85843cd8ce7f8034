#include "run/simulation_job.h"

namespace parasight::gui {
namespace {

// The share of a run's wall time each phase takes, roughly (docs/performance.md): compile, engine, analysis.
constexpr double compile_share = 0.15;
constexpr double engine_share = 0.6;

// The core's per-phase progress as a fraction of the whole run.
class WholeRunProgress final : public ProgressSink {
public:
    explicit WholeRunProgress(JobRunner::Context& context) : context_(context) {}

    void progress(SimulationPhase phase, double fraction) override {
        double overall = fraction;
        switch (phase) {
            case SimulationPhase::compile: overall = compile_share * fraction; break;
            case SimulationPhase::engine: overall = compile_share + engine_share * fraction; break;
            case SimulationPhase::analysis:
                overall = compile_share + engine_share + (1.0 - compile_share - engine_share) * fraction;
                break;
        }
        context_.report(QString::fromUtf8(name_of(phase, simulation_phase_names)), overall);
    }
    [[nodiscard]] bool cancelled() const override { return context_.cancelled(); }

private:
    JobRunner::Context& context_;
};

SimulationError cancelled_in_analysis() {
    SimulationError cancelled;
    cancelled.kind = SimulationErrorKind::cancelled;
    cancelled.phase = SimulationPhase::analysis;
    cancelled.message = "cancelled";
    return cancelled;
}

}  // namespace

std::function<SimulationOutcome(JobRunner::Context&)> simulation_work(std::shared_ptr<const ValidatedScenario> scenario,
                                                                      SimulateOptions options) {
    return [scenario = std::move(scenario), options](JobRunner::Context& context) mutable -> SimulationOutcome {
        WholeRunProgress progress(context);
        options.progress = &progress;
        auto simulated = simulate(*scenario, options);
        if (!simulated) return simulated.error();
        auto result = make_result(scenario, std::move(simulated).value(),
                                  PhaseProgress(&progress, SimulationPhase::analysis));
        if (!result) return cancelled_in_analysis();
        result->job = context.job();
        return std::shared_ptr<const SimulationResult>(std::move(result));
    };
}

}  // namespace parasight::gui
