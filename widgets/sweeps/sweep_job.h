#pragma once
// A sweep run from the window as a job of run/job_runner.h: the plan's points simulated on worker threads and stored
// batch by batch in the results database as parasight-cli sweep stores them (store/stored_sweep_run.h) — so a sweep
// cancelled or cut short resumes where it stopped, from the window or the command line. Progress: points stored of
// the points to run.

#include "run/job_runner.h"
#include "sweep/sweep_runner.h"

#include <functional>
#include <string>

namespace parasight::gui {

struct SweepRun {
    std::int64_t sweep_id = 0;
    std::uint64_t run = 0;             // points run now
    std::uint64_t stored_before = 0;   // points the database held already
    std::string error;                 // why the database could not be written, if it could not
};

[[nodiscard]] std::function<SweepRun(JobRunner::Context&)> sweep_work(SweepPlan plan, std::string database,
                                                                      int threads);

}  // namespace parasight::gui
