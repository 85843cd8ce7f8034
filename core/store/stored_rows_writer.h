#pragma once
// Rows of the results database written out as they are read: CSV (RFC 4180: a header line, then a line per row,
// fields with a comma, a quote or a line break quoted) or a JSON array of objects keyed by column name, with NULL as
// null and numbers as numbers. `parasight-cli runs export` and the sweep views' "Export" write the same bytes.

#include "export/json_writer.h"
#include "store/result_store.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace parasight {

enum class StoredRowsFormat { csv, json };

class StoredRowsWriter final : public RowVisitor {
public:
    StoredRowsWriter(std::ostream& out, StoredRowsFormat format);

    void columns(const std::vector<std::string>& names) override;
    void row(const std::vector<StoredValue>& values) override;
    // Closes the JSON array; call once after the last row.
    void finish();

private:
    std::ostream& out_;
    StoredRowsFormat format_;
    JsonWriter json_;
    std::vector<std::string> names_;
};

// A stored value into a JSON document: integers and reals as numbers, text as a string, NULL as null.
void write_stored_value(JsonWriter& json, const StoredValue& value);

}  // namespace parasight
