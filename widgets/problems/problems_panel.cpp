#include "problems/problems_panel.h"

#include "common/message_text.h"
#include "problems/problem_list_view.h"

#include <QListView>
#include <QMainWindow>
#include <QStatusBar>
#include <QToolButton>

namespace parasight::gui {

ProblemsPanel::ProblemsPanel(QMainWindow* window)
    : QDockWidget(tr("Problems"), window), window_(window), model_(new ProblemListModel(this)),
      list_(make_problem_list(model_, QStringLiteral("ProblemsList"), tr("Problems"), this)),
      count_(new QToolButton(window)) {
    setObjectName(QStringLiteral("ProblemsDock"));
    const auto choose = [this](const QModelIndex& index) {
        Q_EMIT problemChosen(index.data(ProblemListModel::PathRole).toString());
    };
    connect(list_, &QListView::activated, this, choose);
    connect(list_, &QListView::clicked, this, choose);
    setWidget(list_);
    window->addDockWidget(Qt::BottomDockWidgetArea, this);
    hide();

    count_->setObjectName(QStringLiteral("ProblemsCount"));
    count_->setAutoRaise(true);
    count_->setToolTip(tr("Show or hide the Problems panel (each problem is also marked on its field)"));
    count_->hide();
    connect(count_, &QToolButton::clicked, this, &ProblemsPanel::toggle);
}

void ProblemsPanel::toggle() {
    if (!isHidden()) {
        hide();
        return;
    }
    show();
    raise();
    // About five rows tall, not a share of the window.
    window_->resizeDocks({this}, {list_->fontMetrics().height() * 7}, Qt::Vertical);
}

void ProblemsPanel::setProblems(const Diagnostics& problems) {
    model_->setProblems(problems);
    const QString count = QString::fromStdString(count_phrase(static_cast<std::int64_t>(problems.size()), "problem"));
    count_->setText(QStringLiteral("⚠ %1").arg(count));
    count_->setVisible(!problems.empty());
    if (problems.empty()) hide();  // nothing to list
}

void ProblemsPanel::hideAll() {
    hide();
    count_->hide();
}

}  // namespace parasight::gui
