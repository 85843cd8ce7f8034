#include "document/scenario_edit_command.h"

#include "document/scenario_document.h"

namespace parasight::gui {

ScenarioEditCommand::ScenarioEditCommand(ScenarioDocument& document, const QString& text, QString merge_key,
                                         Scenario before, Scenario after)
    : QUndoCommand(text),
      document_(document),
      merge_key_(std::move(merge_key)),
      before_(std::move(before)),
      after_(std::move(after)) {}

void ScenarioEditCommand::undo() { document_.replace(before_); }

void ScenarioEditCommand::redo() { document_.replace(after_); }

int ScenarioEditCommand::id() const {
    // One id for every scenario edit; mergeWith compares the keys.
    return 1;
}

bool ScenarioEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ScenarioEditCommand*>(other);
    if (merge_key_.isEmpty() || next->merge_key_ != merge_key_) return false;
    after_ = next->after_;
    return true;
}

}  // namespace parasight::gui
