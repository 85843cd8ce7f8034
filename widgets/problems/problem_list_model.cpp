#include "problems/problem_list_model.h"

namespace parasight::gui {

ProblemListModel::ProblemListModel(QObject* parent) : QAbstractListModel(parent) {}

void ProblemListModel::setProblems(Diagnostics problems) {
    beginResetModel();
    problems_ = std::move(problems);
    endResetModel();
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    const auto count = static_cast<std::int64_t>(problems_.size());
    return count > max_listed ? max_listed + 1 : static_cast<int>(count);
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (index.row() == max_listed) {
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
        const auto more = static_cast<std::int64_t>(problems_.size()) - max_listed;
        return tr("…and %1 more %2, not listed here (parasight-cli validate lists every one)")
            .arg(more)
            .arg(more == 1 ? tr("problem") : tr("problems"));
    }
    const Diagnostic& problem = problems_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return QString::fromStdString(problem.to_string());
    case PathRole: return QString::fromStdString(problem.path);
    default: return {};
    }
}

}  // namespace parasight::gui
