#include "run/run_recorder.h"

#include "scenario_file/scenario_writer.h"
#include "document/results_database.h"
#include "store/result_store.h"

namespace parasight::gui {
namespace {

struct StoredRun {
    std::int64_t run = 0;
    bool added = false;
};

Expected<StoredRun> store_run(const std::string& path, const std::string& name, const std::string& yaml,
                              const Report& report) {
    Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
    if (!store) return Error{store.error()};
    Expected<std::optional<std::int64_t>> known = store.value().stored_run_of(yaml, report.mode);
    if (!known) return Error{known.error()};
    if (known.value()) return StoredRun{*known.value(), false};
    Expected<std::int64_t> added = store.value().add_run(name, yaml, report);
    if (!added) return Error{added.error()};
    return StoredRun{added.value(), true};
}

}  // namespace

RunRecorder::RunRecorder(QObject* parent) : QObject(parent) {
    quiet_.setSingleShot(true);
    quiet_.setInterval(quiet_ms);
    connect(&quiet_, &QTimer::timeout, this, &RunRecorder::storeNow);
    connect(&runner_, &JobRunner::failed, this, [this](quint64, const QString& what) { Q_EMIT refused(what); });
}

void RunRecorder::setDatabase(const QString& path) { database_ = path; }

void RunRecorder::setEnabled(bool on) {
    enabled_ = on;
    if (!on) withdraw();
}

void RunRecorder::offer(std::shared_ptr<const SimulationResult> result) {
    if (!enabled_ || !result) return;
    offered_ = std::move(result);
    quiet_.start();
}

void RunRecorder::withdraw() {
    quiet_.stop();
    offered_.reset();
}

void RunRecorder::storeNow() {
    quiet_.stop();
    if (!offered_) return;
    const std::string path = results_database_path(database_).toStdString();
    if (path.empty()) {
        Q_EMIT refused(tr("No results database: neither XDG_DATA_HOME nor HOME says where it goes"));
        return;
    }
    // The worker reads the result, which nothing changes any more (the views only read it too), and writes the
    // scenario out there: seconds for the largest strategy trees, which the GUI thread spent here before.
    runner_.start<Expected<StoredRun>>(
        [path, result = std::move(offered_)](JobRunner::Context&) {
            const Scenario& scenario = result->scenario->value();
            return store_run(path, scenario.name, write_scenario_yaml(scenario), result->simulation.report);
        },
        [this](std::uint64_t, Expected<StoredRun> run) {
            if (!run) {
                Q_EMIT refused(QString::fromStdString(run.error()));
                return;
            }
            Q_EMIT stored(run.value().run, run.value().added);
        });
}

}  // namespace parasight::gui
