#pragma once
// The threads for work that may outlive the widget that started it (a job a closed view abandoned, an old result
// being freed). Not QThreadPool::globalInstance(): Qt 6.4 converts and smooth-scales images on that pool's threads
// while painting and makes the GUI thread wait for them, so a long job there stalls every repaint that scales a
// pixmap (the Fusion style's group boxes) until it ends — seconds with the largest scenarios.

class QThreadPool;

namespace parasight::gui {

// Made on first use, a child of the application: the application waits for its work when it ends. Null without an
// application.
[[nodiscard]] QThreadPool* background_pool();

}  // namespace parasight::gui
