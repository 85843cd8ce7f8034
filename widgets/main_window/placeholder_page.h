#pragma once
// A tab whose view has not been built yet says so plainly, instead of showing an empty area.

#include <QWidget>

namespace parasight::gui {

class PlaceholderPage : public QWidget {
    Q_OBJECT

public:
    PlaceholderPage(const QString& title, const QString& explanation, QWidget* parent = nullptr);
};

}  // namespace parasight::gui
