#include "main_window/lesson_handout_export.h"

#include "lessons/lesson_panel.h"
#include "main_window/main_window.h"
#include "sweeps/sweeps_page.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

namespace parasight::gui {

namespace {

// Step i's picture as the Markdown links it: beside the handout, in FOLDER/step-N.png.
QString figure_name(int index) { return QStringLiteral("step-%1.png").arg(index + 1); }

}  // namespace

LessonHandoutExport::LessonHandoutExport(MainWindow& window, QString path, HandoutReader reader)
    : QObject(&window), window_(window), path_(std::move(path)), reader_(reader) {}

void LessonHandoutExport::start() {
    LessonPanel* panel = window_.lessonPanel();
    step_before_ = panel->step();
    connect(&window_, &MainWindow::lessonStepShown, this, &LessonHandoutExport::pictureStep);
    step_ = 0;
    // At the first step already, it opens again (setStep would do nothing).
    if (panel->step() == 0) {
        panel->resetStep();
    } else {
        panel->setStep(0);
    }
}

void LessonHandoutExport::pictureStep() {
    const LessonStep& step = window_.lessonPanel()->lesson()->steps.at(static_cast<std::size_t>(step_));
    SweepsPage* sweeps = window_.sweepsPage();
    if (step.sweep && sweeps->isSweeping()) {
        // The step's heatmap once its sweep has ended and its grid is read again.
        connect(sweeps, &SweepsPage::sweepSettled, this, [this, sweeps] {
            connect(sweeps, &SweepsPage::gridShown, this, &LessonHandoutExport::nextStep, Qt::SingleShotConnection);
        }, Qt::SingleShotConnection);
        return;
    }
    nextStep();
}

void LessonHandoutExport::nextStep() {
    figures_.push_back(window_.resultsArea()->grab().toImage());
    const auto steps = static_cast<int>(window_.lessonPanel()->lesson()->steps.size());
    if (++step_ < steps) {
        window_.lessonPanel()->setStep(step_);
        return;
    }
    disconnect(&window_, &MainWindow::lessonStepShown, this, nullptr);
    writeHandout();
}

void LessonHandoutExport::writeHandout() {
    const QString error = path_.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive) ? writePdf() : writeMarkdown();
    window_.lessonPanel()->setStep(step_before_);
    if (error.isEmpty()) {
        Q_EMIT finished(tr("Wrote the handout to %1").arg(QDir::toNativeSeparators(path_)), true);
    } else {
        Q_EMIT finished(tr("The handout was not written: %1").arg(error), false);
    }
}

QString LessonHandoutExport::writeMarkdown() const {
    const QFileInfo target(path_);
    const QString folder_name = target.completeBaseName() + QStringLiteral("-figures");
    QDir folder(target.absolutePath());
    if (!folder.mkpath(folder_name)) return tr("cannot make the folder %1").arg(folder.filePath(folder_name));
    std::vector<std::string> links;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
        const QString name = figure_name(static_cast<int>(i));
        QSaveFile file(folder.filePath(folder_name + u'/' + name));
        if (!file.open(QIODevice::WriteOnly) || !figures_[i].save(&file, "PNG") || !file.commit()) {
            return tr("cannot write %1: %2").arg(file.fileName(), file.errorString());
        }
        links.push_back((folder_name + u'/' + name).toStdString());
    }
    const LessonPanel* panel = window_.lessonPanel();
    const std::string markdown = lesson_handout_markdown(*panel->lesson(), links, panel->runs(), reader_, panel->variant());
    QSaveFile file(path_);
    const QByteArray bytes = QByteArray::fromStdString(markdown);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        return tr("cannot write %1: %2").arg(path_, file.errorString());
    }
    return {};
}

QString LessonHandoutExport::writePdf() const {
    std::vector<std::string> links;
    QTextDocument document;
    for (std::size_t i = 0; i < figures_.size(); ++i) links.push_back(figure_name(static_cast<int>(i)).toStdString());
    const LessonPanel* panel = window_.lessonPanel();
    document.setMarkdown(QString::fromStdString(lesson_handout_markdown(*panel->lesson(), links, panel->runs(), reader_, panel->variant())));

    QSaveFile file(path_);
    if (!file.open(QIODevice::WriteOnly)) return tr("cannot write %1: %2").arg(path_, file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setResolution(300);  // the pictures kept sharp in print
        writer.setTitle(QString::fromStdString(panel->lesson()->title));
        writer.setCreator(QStringLiteral("ParaSight"));
        // The document is laid out in units of 1/96 inch, as on screen, and drawn scaled to the writer's resolution.
        const double scale = writer.resolution() / 96.0;
        const QSizeF page = writer.pageLayout().paintRectPixels(writer.resolution()).size() / scale;
        document.setPageSize(page);
        // After the text (setting it clears the document's resources): each picture as wide as the page's text, its
        // pixels kept (a device pixel ratio, not a smaller image).
        const double text_width = page.width() - 2 * document.documentMargin();
        for (std::size_t i = 0; i < figures_.size(); ++i) {
            QImage figure = figures_[i];
            figure.setDevicePixelRatio(std::max(1.0, figure.width() / text_width));
            document.addResource(QTextDocument::ImageResource, QUrl(figure_name(static_cast<int>(i))), figure);
        }
        // Page by page from this document (QTextDocument::print would lay out a copy without the pictures).
        QPainter painter(&writer);
        painter.scale(scale, scale);
        for (int index = 0; index < document.pageCount(); ++index) {
            if (index > 0) writer.newPage();
            const QRectF shown(0, index * page.height(), page.width(), page.height());
            painter.save();
            painter.translate(0, -shown.top());
            document.drawContents(&painter, shown);
            painter.restore();
        }
    }
    if (!file.commit()) return tr("cannot write %1: %2").arg(path_, file.errorString());
    return {};
}

}  // namespace parasight::gui
