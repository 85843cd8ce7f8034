#pragma once
// The problems panel's rows: every problem of the scenario being edited (or of the file that did not load, or of
// the run that failed), worded as the command line words it, each with the scenario path of its value so that
// choosing one can go to its field; the first max_listed of them, then how many more.

#include "diagnostics/diagnostic.h"

#include <QAbstractListModel>

namespace parasight::gui {

class ProblemListModel : public QAbstractListModel {
    Q_OBJECT

public:
    // The problem's scenario path ("parallelism.tp"), empty when it is about no one value.
    static constexpr int PathRole = Qt::UserRole + 1;
    // Rows listed at most: a file of 100 000 unknown keys has 100 008 problems, which no one reads and whose
    // word-wrapped layout kept the window from its events for seconds. Past it, one last row says how many more.
    static constexpr int max_listed = 200;

    explicit ProblemListModel(QObject* parent = nullptr);

    void setProblems(Diagnostics problems);
    [[nodiscard]] const Diagnostics& problems() const noexcept { return problems_; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    Diagnostics problems_;
};

}  // namespace parasight::gui
