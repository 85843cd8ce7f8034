#pragma once
// Light, dark or the desktop's own colours for the whole application. Qt follows the desktop's palette by itself
// where the platform theme provides one; the explicit choices use the Fusion style with a palette of their own, so
// they look the same on every desktop (and in offscreen screenshots).

#include <QPalette>
#include <QString>
#include <QStringList>

#include <optional>

namespace parasight::gui {

enum class Appearance { system, light, dark };

// "system", "light", "dark": as --palette and the settings file name them.
[[nodiscard]] QStringList appearance_names();
[[nodiscard]] std::optional<Appearance> appearance_from_name(const QString& name);
[[nodiscard]] QString appearance_name(Appearance appearance);

// Applies it to the running QApplication; every widget gets a PaletteChange event.
void apply_appearance(Appearance appearance);

// `palette` with the most contrast a projector keeps: black on white when its text is darker than its base, white on
// black otherwise (the window a shade off, for fields to keep their edges); a saturated highlight and links, disabled
// text still told apart.
[[nodiscard]] QPalette high_contrast_palette(const QPalette& palette);

}  // namespace parasight::gui
