#pragma once
// The Scenario dock: a form of every field of scenario_fields() — model, training, cluster, topology dimensions,
// parallelism, simulation — in sections, each field edited in the units the scenario file takes ("300 GB/s").
// Every change is an undoable edit of the document; the form follows the document (undo, open) at once. A field
// whose value has a problem shows the loader's message under it; text that cannot be read at all is refused there
// and the scenario keeps its value.

#include "document/scenario_document.h"
#include "navigation/target_area.h"
#include "scenario_form/scenario_fields.h"
#include "target/target.h"

#include <optional>

#include <QWidget>

#include <cstddef>
#include <functional>

#include <vector>

class QFormLayout;
class QMenu;
class QLineEdit;
class QScrollArea;
class QVBoxLayout;

namespace parasight::gui {

class WrappedTextLabel;

class ScenarioForm : public QWidget {
    Q_OBJECT

public:
    explicit ScenarioForm(ScenarioDocument& document, QWidget* parent = nullptr);
    // Commits what the focused field holds, as leaving it would, while this object is whole: the field's own focus-out
    // in the base class's teardown would otherwise call into a form already half destroyed.
    ~ScenarioForm() override;
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    // Shows only the fields `shown` accepts (those of one topology dimension for the topology's inspector), without
    // the dimension buttons; an empty function shows every field.
    void setFieldFilter(std::function<bool(const ScenarioField& field)> shown);

    // Shows and focuses the field a problem at `path` is about (or the first field inside it); false if none is.
    bool focusField(const QString& path);
    // The editor of the field at `path` (a QLineEdit, QComboBox or QCheckBox), or null.
    [[nodiscard]] QWidget* editor(const QString& path) const;
    // The message shown under the field at `path`; empty when it has none.
    [[nodiscard]] QString message(const QString& path) const;
    // Writes `text` to the field as a user committing it would (for tests and scripting).
    void enter(const QString& path, const QString& text);

protected:
    // Ctrl+Z / Ctrl+Shift+Z in a text field: the document's undo, not the field's (see handleUndoKey).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        ScenarioField field;
        QWidget* editor = nullptr;
        WrappedTextLabel* message = nullptr;
        std::string unreadable;  // why the text last entered could not be read; empty once it could
    };
    void rebuild();
    // Remove under each topology dimension's fields; Add Outer Dimension under the last one's.
    void addDimensionButtons(QFormLayout& form, std::size_t dimension);
    // The layout picker above the degrees: every tp × pp × dp (× ep) that validates, one click each.
    void addLayoutPicker(QFormLayout& form);
    void fillLayoutMenu(QMenu& menu);
    void addDimension();
    void removeDimension(std::size_t dimension);
    void refresh();
    void commit(std::size_t row, const QString& text);
    void showValue(Row& row);
    void showMessage(Row& row);
    [[nodiscard]] const Row* find(const QString& path) const;
    // One undo model: in a field with text typed and not committed, undo and redo drop that text (the field shows
    // the document's value again); otherwise they undo or redo the document's last edit. Nothing is committed.
    void handleUndoKey(QLineEdit& line, bool redo);

    ScenarioDocument& document_;
    QScrollArea* scroll_ = nullptr;
    QWidget* content_ = nullptr;
    std::vector<Row> rows_;
    std::function<bool(const ScenarioField&)> field_shown_;
    QStringList paths_;  // of the fields shown: a change rebuilds the form (a topology dimension added)
};

}  // namespace parasight::gui
