#include "run/run_session.h"

namespace parasight::gui {

RunSession::RunSession(QObject* parent) : QObject(parent) {}

void RunSession::setResult(std::shared_ptr<const SimulationResult> result, const ValidatedScenario* editing) {
    state_ = RunState{};
    state_.kind = RunState::Kind::result;
    state_.stale = result->scenario.get() != editing;
    state_.result = std::move(result);
    publish();
}

void RunSession::setFailure(const SimulationError& error) {
    state_ = RunState{};
    state_.kind = RunState::Kind::failure;
    state_.error = error;
    state_.message = tr("Not simulated: %1").arg(QString::fromStdString(error.message));
    publish();
}

void RunSession::setEditing(const ValidatedScenario* editing) {
    RunState next = state_;
    if (editing == nullptr) {
        next.kind = RunState::Kind::not_simulated;
        next.message = tr("The scenario has problems (marked on their fields; the count in the status bar lists "
                          "them): nothing is simulated");
        next.stale = next.result != nullptr;
    } else {
        if (next.kind == RunState::Kind::not_simulated) {
            next.kind = next.result ? RunState::Kind::result : RunState::Kind::none;
            next.message.clear();
        }
        // A failure stands until the next run's outcome.
        if (next.kind == RunState::Kind::result) next.stale = next.result->scenario.get() != editing;
    }
    if (next.kind == state_.kind && next.stale == state_.stale && next.message == state_.message) return;
    state_ = std::move(next);
    publish();
}

void RunSession::publish() { Q_EMIT changed(state_); }

}  // namespace parasight::gui
