#pragma once
// The narrow interface through which a running simulation reports progress and learns that it should stop. The
// command line and the GUI each implement it (OMNeT++'s way: the kernel knows no front end). Every phase — compiling
// the graph, running the engine, analysing the result — reports and polls it, so that a cancel takes effect within
// a few milliseconds wherever the run is.

#include "common/enum_names.h"

#include <array>
#include <cstdint>

namespace parasight {

enum class SimulationPhase : std::uint8_t { compile, engine, analysis };
inline constexpr std::array<EnumName<SimulationPhase>, 3> simulation_phase_names{
    {{SimulationPhase::compile, "compiling"}, {SimulationPhase::engine, "simulating"},
     {SimulationPhase::analysis, "analysing"}}};

class ProgressSink {
public:
    ProgressSink() = default;
    ProgressSink(const ProgressSink&) = delete;
    ProgressSink& operator=(const ProgressSink&) = delete;
    virtual ~ProgressSink() = default;

    // `fraction` (0 to 1) of `phase` is done. Called from the simulating thread, often: keep it cheap.
    virtual void progress(SimulationPhase phase, double fraction) = 0;
    // Polled with every progress call: true stops the simulation as soon as possible.
    [[nodiscard]] virtual bool cancelled() const = 0;
};

// What a phase, or a part of one, holds to report through an optional sink: report() forwards the fraction and
// answers whether to stop. A phase with no sink never stops.
class PhaseProgress {
public:
    PhaseProgress(ProgressSink* sink, SimulationPhase phase) noexcept : sink_(sink), phase_(phase) {}

    // Reports `fraction` of this part; true when the run should stop.
    [[nodiscard]] bool report(double fraction) const {
        if (sink_ == nullptr) return false;
        sink_->progress(phase_, from_ + fraction * (to_ - from_));
        return sink_->cancelled();
    }

    // The part of this one from `from` to `to` (fractions of it), for work done in steps.
    [[nodiscard]] PhaseProgress part(double from, double to) const noexcept {
        PhaseProgress part = *this;
        part.from_ = from_ + from * (to_ - from_);
        part.to_ = from_ + to * (to_ - from_);
        return part;
    }

private:
    ProgressSink* sink_;
    SimulationPhase phase_;
    double from_ = 0.0;
    double to_ = 1.0;
};

// A sink for a step that runs inside another phase (a short compile inside the engine phase): whatever the step
// reports is passed on as the part [from, to] of `phase`; cancelling is asked of the sink it wraps.
class ProgressWithin final : public ProgressSink {
public:
    ProgressWithin(ProgressSink* sink, SimulationPhase phase, double from, double to) noexcept
        : sink_(sink), phase_(phase), from_(from), to_(to) {}
    void progress(SimulationPhase /*step's phase*/, double fraction) override {
        if (sink_ != nullptr) sink_->progress(phase_, from_ + fraction * (to_ - from_));
    }
    [[nodiscard]] bool cancelled() const override { return sink_ != nullptr && sink_->cancelled(); }

private:
    ProgressSink* sink_;
    SimulationPhase phase_;
    double from_;
    double to_;
};

}  // namespace parasight
