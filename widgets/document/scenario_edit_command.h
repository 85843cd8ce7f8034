#pragma once
// One undoable change of a ScenarioDocument: the value before and after. Undo and redo swap whole values (a Scenario
// is a few kilobytes), so a command is exact whatever it changed. Edits of one field in a row merge.

#include "scenario/scenario.h"

#include <QString>
#include <QUndoCommand>

namespace parasight::gui {

class ScenarioDocument;

class ScenarioEditCommand : public QUndoCommand {
public:
    ScenarioEditCommand(ScenarioDocument& document, const QString& text, QString merge_key, Scenario before,
                        Scenario after);

    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    ScenarioDocument& document_;
    QString merge_key_;  // empty: never merges
    Scenario before_;
    Scenario after_;
};

}  // namespace parasight::gui
