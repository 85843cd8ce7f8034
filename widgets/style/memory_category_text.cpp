#include "style/memory_category_text.h"

#include <QCoreApplication>

namespace parasight::gui {

QString memory_category_text(MemoryCategory category) {
    switch (category) {
    case MemoryCategory::weights: return QCoreApplication::translate("MemoryCategory", "Weights");
    case MemoryCategory::gradients: return QCoreApplication::translate("MemoryCategory", "Gradients");
    case MemoryCategory::optimizer: return QCoreApplication::translate("MemoryCategory", "Optimizer state");
    case MemoryCategory::activations: return QCoreApplication::translate("MemoryCategory", "Activations");
    case MemoryCategory::buffers: return QCoreApplication::translate("MemoryCategory", "Buffers");
    case MemoryCategory::runtime: return QCoreApplication::translate("MemoryCategory", "Runtime");
    }
    return {};
}

}  // namespace parasight::gui
