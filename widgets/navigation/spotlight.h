#pragma once
// The second verb of targets, after reveal: the spotlight marks where a target is drawn — an outline in the
// palette's highlight colour around it, over the view, for a few seconds — so that a lesson or a link can say "here"
// without taking the pointer or the focus. Dimming (presentation mode), it also darkens the whole window but the
// target, for a projected room to find it. It lets every click through to the view below.

#include "navigation/target_area.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

namespace parasight::gui {

class Spotlight : public QWidget {
    Q_OBJECT

public:
    explicit Spotlight(QWidget* parent = nullptr);

    // Where the marked thing is now: asked again whenever the widget it is in moves or resizes, and every 100 ms (a
    // view that scrolls or lays its picture out anew moves what it marks without moving); none clears the mark.
    using Locate = std::function<std::optional<TargetArea>()>;
    // Marks what `locate` finds for `duration_ms`.
    void shine(Locate locate, int duration_ms = 2500);
    void clear();
    // What is marked, in the window's coordinates; empty when nothing is.
    [[nodiscard]] QRect marked() const;
    // Whether it darkens everything but what it marks.
    void setDimming(bool dimming);
    [[nodiscard]] bool isDimming() const noexcept { return dimming_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow();

    Locate locate_;
    QPointer<QWidget> target_;
    QRect rect_;  // in target_'s coordinates
    QRect hole_;  // what is marked with the margin, in this widget's coordinates
    bool dimming_ = false;
    QTimer timer_;         // how long the mark stays
    QTimer follow_timer_;  // asks `locate_` again while it does
};

}  // namespace parasight::gui
