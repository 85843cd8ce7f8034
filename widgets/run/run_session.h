#pragma once
// What the window knows of the simulation of the scenario being edited, as one value every view subscribes to
// (changed) — instead of the main window telling each view in turn, and forgetting some. The state is the newest
// run's result, the failure of the newest run, or the scenario not simulated because it has problems; a result is
// stale while the scenario it belongs to is no longer the editor's (shown greyed until the next run's arrives).

#include "run/simulation_result.h"

#include <QObject>
#include <QString>

#include <memory>

namespace parasight::gui {

struct RunState {
    enum class Kind : std::uint8_t {
        none,           // nothing has run yet
        result,         // `result` (stale when the scenario has changed since)
        failure,        // the newest run gave no result: `error`, and `message` for the views
        not_simulated,  // the scenario has problems, so nothing runs: `message`; `result` is the last one, stale
    };
    Kind kind = Kind::none;
    std::shared_ptr<const SimulationResult> result;
    SimulationError error;
    QString message;
    bool stale = false;

    // The result to draw, if any: the current one, or under `not_simulated` the last one, greyed.
    [[nodiscard]] const SimulationResult* shown() const noexcept { return result.get(); }
};

class RunSession : public QObject {
    Q_OBJECT

public:
    explicit RunSession(QObject* parent = nullptr);

    [[nodiscard]] const RunState& state() const noexcept { return state_; }

    // The newest run's result; stale unless it is of `editing`, the scenario the editor holds now.
    void setResult(std::shared_ptr<const SimulationResult> result, const ValidatedScenario* editing);
    // The newest run failed (refused by the core, or its work threw): the views drop the last result's numbers.
    void setFailure(const SimulationError& error);
    // The scenario changed: a valid one (`editing`) makes the shown result stale until its own run arrives; an invalid
    // one (null) is not simulated, and the last result stays, greyed, so that fixing it does not lose one's place.
    void setEditing(const ValidatedScenario* editing);

Q_SIGNALS:
    void changed(const parasight::gui::RunState& state);

private:
    void publish();

    RunState state_;
};

}  // namespace parasight::gui
