#pragma once
// A lesson's handout with each step's figure (docs/lessons.md, "Handouts"): the window goes through the lesson's
// steps one by one — each opened and simulated as the Lesson dock opens it, its tab and targets shown, its sweep run
// when it has one — and pictures the results area of each; then writes the handout (core lesson/lesson_handout.h) as
// Markdown with the pictures beside it (FILE.md and FILE-figures/step-N.png) or as one PDF (Qt's PDF writer), every
// file whole or not at all, and goes back to the step it started from.

#include "lesson/lesson_handout.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <vector>

namespace parasight::gui {

class MainWindow;

class LessonHandoutExport : public QObject {
    Q_OBJECT
public:
    // `path` ends in .md or .pdf.
    LessonHandoutExport(MainWindow& window, QString path, HandoutReader reader);

    // Goes to the first step; finished follows once the last one is pictured and the handout written.
    void start();

Q_SIGNALS:
    // What was written where, or why nothing was; the export is done.
    void finished(const QString& message, bool written);

private:
    void pictureStep();
    void nextStep();
    void writeHandout();
    // Each returns why nothing was written, or nothing.
    [[nodiscard]] QString writeMarkdown() const;
    [[nodiscard]] QString writePdf() const;

    MainWindow& window_;
    QString path_;
    HandoutReader reader_;
    int step_before_ = 0;
    int step_ = 0;
    std::vector<QImage> figures_;
};

}  // namespace parasight::gui
