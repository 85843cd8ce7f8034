#pragma once
// Keeps the window's runs in the results database's history (docs/store.md): a result that stays the newest for a
// quiet moment (no edit replaces it within quiet_ms) is stored as a single run — once per scenario and mode, as
// ResultStore::stored_run_of finds it — on a worker, the scenario written out there too, so that typing a number
// does not store each keystroke's run and nothing waits on the database or the writing. Off by a setting (Run → Keep Runs in History).

#include "run/job_runner.h"
#include "run/simulation_result.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace parasight::gui {

class RunRecorder : public QObject {
    Q_OBJECT

public:
    static constexpr int quiet_ms = 1500;

    explicit RunRecorder(QObject* parent = nullptr);

    // Where runs are stored: the default results database when empty.
    void setDatabase(const QString& path);
    void setEnabled(bool on);
    [[nodiscard]] bool isEnabled() const noexcept { return enabled_; }
    // The newest result: stored once it has stayed the newest for quiet_ms.
    void offer(std::shared_ptr<const SimulationResult> result);
    // A newer run started or the scenario changed: the result offered is not stored.
    void withdraw();
    // Stores the result offered now, without waiting (tests, closing the window).
    void storeNow();

Q_SIGNALS:
    // The run is in the history: `run` its id; `added` false when that scenario's run was already there.
    void stored(qint64 run, bool added);
    // It could not be stored: why.
    void refused(const QString& reason);

private:
    QString database_;
    bool enabled_ = true;
    std::shared_ptr<const SimulationResult> offered_;
    QTimer quiet_;
    JobRunner runner_;
};

}  // namespace parasight::gui
