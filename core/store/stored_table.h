#pragma once
// Rows of the results database read whole, with their column names, and a stored value as text or as a number:
// what a top-K list, one run or two runs to compare need (a sweep's every point streams through a RowVisitor instead).

#include "store/result_store.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct StoredTable final : RowVisitor {
    std::vector<std::string> names;
    std::vector<std::vector<StoredValue>> rows;
    void columns(const std::vector<std::string>& column_names) override { names = column_names; }
    void row(const std::vector<StoredValue>& values) override { rows.push_back(values); }
    // The index of a column, or -1.
    [[nodiscard]] int column(std::string_view name) const;
    // The value of column `name` in row `row`; NULL when there is no such column.
    [[nodiscard]] const StoredValue& at(std::size_t row, std::string_view name) const;
};

// A value as text: integers as written, reals in shortest round-trip form, NULL as empty.
[[nodiscard]] std::string stored_text(const StoredValue& value);
// An integer or a real as a number; nothing for text and NULL.
[[nodiscard]] std::optional<double> stored_number(const StoredValue& value);

}  // namespace parasight
