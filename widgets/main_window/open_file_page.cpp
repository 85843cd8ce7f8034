#include "main_window/open_file_page.h"

#include "common/message_text.h"
#include "problems/problem_list_model.h"
#include "problems/problem_list_view.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace parasight::gui {

OpenFilePage::OpenFilePage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("OpenFilePage"));
    // In a scroll area, so that a small window (640 × 400) scrolls the buttons rather than growing for them.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(24, 24, 24, 24);
    title_ = new QLabel(this);
    QFont title_font = title_->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.4);
    title_font.setBold(true);
    title_->setFont(title_font);
    title_->setTextFormat(Qt::PlainText);
    title_->setWordWrap(true);
    folder_ = new QLabel(this);
    folder_->setTextFormat(Qt::PlainText);
    folder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    folder_->setWordWrap(true);
    explanation_ = new QLabel(this);
    explanation_->setTextFormat(Qt::PlainText);
    explanation_->setWordWrap(true);
    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0);  // the core's reader says nothing of its progress: busy, not a fraction
    busy_->setTextVisible(false);
    busy_->setMaximumWidth(320);
    problems_ = new ProblemListModel(this);
    list_ = make_problem_list(problems_, QStringLiteral("OpenFileProblems"), tr("Why the file was not opened"), this);

    auto* buttons = new QHBoxLayout;
    cancel_ = new QPushButton(tr("Cancel"), this);
    edit_ = new QPushButton(tr("Open in &Text Editor"), this);
    edit_->setToolTip(tr("Open the file in the desktop's editor for its type, to fix it there; then Reload"));
    reload_ = new QPushButton(tr("&Reload"), this);
    reload_->setToolTip(tr("Read the file again"));
    another_ = new QPushButton(tr("&Open Another File…"), this);
    back_ = new QPushButton(this);
    for (QPushButton* button : {cancel_, edit_, reload_, another_, back_}) buttons->addWidget(button);
    buttons->addStretch(1);
    connect(cancel_, &QPushButton::clicked, this, &OpenFilePage::cancelRequested);
    connect(edit_, &QPushButton::clicked, this, [this] { Q_EMIT editRequested(path_); });
    connect(reload_, &QPushButton::clicked, this, [this] { Q_EMIT reloadRequested(path_); });
    connect(another_, &QPushButton::clicked, this, &OpenFilePage::openAnotherRequested);
    connect(back_, &QPushButton::clicked, this, &OpenFilePage::backRequested);

    layout->addWidget(title_);
    layout->addWidget(folder_);
    layout->addSpacing(8);
    layout->addWidget(explanation_);
    layout->addWidget(busy_);
    layout->addLayout(buttons);
    layout->addWidget(list_, 1);
    layout->addStretch(0);
}

QString OpenFilePage::headline() const { return title_->text(); }

void OpenFilePage::showFile(const QString& path, const QString& title, const QString& explanation,
                            Diagnostics problems) {
    path_ = path;
    const QFileInfo file(path);
    title_->setText(title.arg(file.fileName()));
    folder_->setText(QDir::toNativeSeparators(file.absolutePath()));
    explanation_->setText(explanation);
    list_->setVisible(!problems.empty());
    problems_->setProblems(std::move(problems));
    busy_->hide();
    edit_->setEnabled(file.isFile());  // a file that is not there has nothing to edit; it can still be looked for
}

void OpenFilePage::showOpening(const QString& path) {
    showFile(path, tr("Opening %1…"), tr("Reading and checking the scenario."), {});
    busy_->show();
    cancel_->show();
    for (QPushButton* button : {edit_, reload_, another_, back_}) button->hide();
    cancel_->setFocus();
}

void OpenFilePage::showFailure(const QString& path, Diagnostics problems, const QString& back_to) {
    const auto count = static_cast<std::int64_t>(problems.size());
    showFile(path, tr("%1 could not be opened"),
             tr("%1 in the file; nothing was changed. Fix the file in a text editor and reload it, or open another "
                "file.")
                 .arg(QString::fromStdString(count_phrase(count, "problem"))),
             std::move(problems));
    showActions(back_to);
}

void OpenFilePage::showCancelled(const QString& path, const QString& back_to) {
    showFile(path, tr("Opening %1 was cancelled"), tr("Nothing was changed."), {});
    showActions(back_to);
}

void OpenFilePage::showActions(const QString& back_to) {
    cancel_->hide();
    for (QPushButton* button : {edit_, reload_, another_, back_}) button->show();
    back_->setText(back_to.isEmpty() ? tr("&New Scenario") : tr("&Back to %1").arg(back_to));
    back_->setToolTip(back_to.isEmpty() ? tr("Start from the bundled default scenario")
                                        : tr("Return to the scenario that was open before"));
    reload_->setFocus();
}

}  // namespace parasight::gui
