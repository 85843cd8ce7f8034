#pragma once
// What the window shows instead of its tabs while a scenario file is being read, and when it could not be opened:
// the file's name and folder, then either a busy bar with Cancel, or why it was not opened — its own problems, each
// FILE:LINE:COL as the command line words them (a long list cut short, with how many more) — with what to do next:
// open it in a text editor, read it again, open another file, or go back to the scenario open before (or start a new
// one when there was none).

#include "diagnostics/diagnostic.h"

#include <QWidget>

class QLabel;
class QListView;
class QProgressBar;
class QPushButton;

namespace parasight::gui {

class ProblemListModel;

class OpenFilePage : public QWidget {
    Q_OBJECT

public:
    explicit OpenFilePage(QWidget* parent = nullptr);

    // `back_to`: the name of the scenario still open behind the page (the Back button), empty for none (New
    // Scenario instead).
    void showOpening(const QString& path);
    void showFailure(const QString& path, Diagnostics problems, const QString& back_to);
    void showCancelled(const QString& path, const QString& back_to);

    [[nodiscard]] const QString& path() const noexcept { return path_; }
    [[nodiscard]] QString headline() const;
    [[nodiscard]] ProblemListModel* problems() const noexcept { return problems_; }

Q_SIGNALS:
    void cancelRequested();
    void reloadRequested(const QString& path);
    void openAnotherRequested();
    void editRequested(const QString& path);
    // Back to the scenario still open behind the page, or a new one when there was none.
    void backRequested();

private:
    // The page's text for `path` (`title` with %1 for its name) and the problems listed, if any.
    void showFile(const QString& path, const QString& title, const QString& explanation, Diagnostics problems);
    void showActions(const QString& back_to);

    QString path_;
    QLabel* title_ = nullptr;
    QLabel* folder_ = nullptr;
    QLabel* explanation_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QListView* list_ = nullptr;
    ProblemListModel* problems_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* edit_ = nullptr;
    QPushButton* reload_ = nullptr;
    QPushButton* another_ = nullptr;
    QPushButton* back_ = nullptr;
};

}  // namespace parasight::gui
