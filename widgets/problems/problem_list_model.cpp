#include "problems/problem_list_model.h"

namespace parasight::gui {

ProblemListModel::ProblemListModel(QObject* parent) : QAbstractListModel(parent) {}

void ProblemListModel::setProblems(Diagnostics problems) {
    beginResetModel();
    problems_ = std::move(problems);
    endResetModel();
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Diagnostic& problem = problems_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return QString::fromStdString(problem.to_string());
    case PathRole: return QString::fromStdString(problem.path);
    default: return {};
    }
}

}  // namespace parasight::gui
