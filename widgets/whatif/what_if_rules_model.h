#pragma once
// One of the scenario's what-if lists (collective delays, slow devices or degraded links) as a table: a row per rule,
// a column per value (whatif/what_if_fields.h), read from the document and written back through it as undoable
// edits. A cell whose value has a problem shows it (the validator's words in its tooltip, drawn in the error colour);
// text that cannot be read as the value is refused and the reason is told by `editRefused`.

#include "document/scenario_document.h"
#include "document/what_if_edits.h"
#include "scenario_form/scenario_fields.h"

#include <QAbstractTableModel>

namespace parasight::gui {

class WhatIfRulesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Role {
        ChoicesRole = Qt::UserRole + 1,  // QStringList: a choice's entries; empty for a typed value
        PlaceholderRole,                 // QString: what an empty value means
        ProblemRole,                     // QString: the cell's problems, one per line; empty when it has none
    };

    WhatIfRulesModel(ScenarioDocument& document, WhatIfList list, QObject* parent = nullptr);

    [[nodiscard]] WhatIfList list() const noexcept { return list_; }
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Undoable edits of the document: a new rule (document/what_if_edits.h) at the end, the rule at `row` removed.
    void addRule();
    bool removeRule(int row);
    // The cell of a value's scenario path ("what_if.slow_devices[1].npus"), or an invalid index.
    [[nodiscard]] QModelIndex indexOfPath(const std::string& path) const;

Q_SIGNALS:
    // Text typed into a cell that is not a value of its kind; the scenario is unchanged.
    void editRefused(const QString& reason);

private:
    void refresh();
    [[nodiscard]] const ScenarioField& field(const QModelIndex& index) const;
    [[nodiscard]] QString problemsOf(const ScenarioField& field) const;

    ScenarioDocument& document_;
    WhatIfList list_;
    std::vector<std::vector<ScenarioField>> rows_;  // each rule's fields, made again when the scenario changes
    std::vector<ScenarioField> header_;            // a row's fields, for the column titles and choices
};

}  // namespace parasight::gui
