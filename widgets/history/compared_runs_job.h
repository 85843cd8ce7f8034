#pragma once
// Two stored runs simulated again, for what the store does not keep: their timelines, matched event by event
// (analysis/timeline_comparison.h), and their reports' breakdown and memory. A job for a JobRunner
// (run/job_runner.h): each run's scenario is read from the database and simulated on the worker, one device per
// class of identical devices (the representative mode), each with its own progress half.

#include "analysis/report.h"
#include "analysis/timeline_comparison.h"
#include "run/job_runner.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parasight::gui {

struct ComparedRuns {
    std::int64_t a_run = 0;
    std::int64_t b_run = 0;
    Report a_report;
    Report b_report;
    std::shared_ptr<const Timeline> a;
    std::shared_ptr<const Timeline> b;
    TimelineComparison comparison;
    std::vector<std::string> largest_changes;  // event_change_text of the five matched events that changed most
};

// The runs simulated again, or why not ("run:7 could not be simulated again: …", "the database holds no run 7").
using ComparedRunsOutcome = Expected<std::shared_ptr<const ComparedRuns>>;

[[nodiscard]] std::function<ComparedRunsOutcome(JobRunner::Context&)> compared_runs_work(std::string database,
                                                                                          std::int64_t a,
                                                                                          std::int64_t b);

}  // namespace parasight::gui
