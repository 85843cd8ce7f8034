#include "store/stored_rows_writer.h"

#include "store/stored_table.h"

#include <ostream>

namespace parasight {
namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

}  // namespace

void write_stored_value(JsonWriter& json, const StoredValue& value) {
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        json.value(*integer);
    } else if (const auto* real = std::get_if<double>(&value)) {
        json.value(*real);
    } else if (const auto* text = std::get_if<std::string>(&value)) {
        json.value(*text);
    } else {
        json.null();
    }
}

StoredRowsWriter::StoredRowsWriter(std::ostream& out, StoredRowsFormat format)
    : out_(out), format_(format), json_(false) {}

void StoredRowsWriter::columns(const std::vector<std::string>& names) {
    names_ = names;
    if (format_ == StoredRowsFormat::json) {
        json_.begin_array();
        return;
    }
    for (std::size_t c = 0; c < names.size(); ++c) out_ << (c > 0 ? "," : "") << csv_field(names[c]);
    out_ << '\n';
}

void StoredRowsWriter::row(const std::vector<StoredValue>& values) {
    if (format_ == StoredRowsFormat::json) {
        json_.begin_object();
        for (std::size_t c = 0; c < values.size(); ++c) {
            json_.key(names_[c]);
            write_stored_value(json_, values[c]);
        }
        json_.end_object();
        json_.drain(out_);
        return;
    }
    for (std::size_t c = 0; c < values.size(); ++c) out_ << (c > 0 ? "," : "") << csv_field(stored_text(values[c]));
    out_ << '\n';
}

void StoredRowsWriter::finish() {
    if (format_ != StoredRowsFormat::json) return;
    json_.end_array();
    json_.drain(out_);
    out_ << '\n';
}

}  // namespace parasight
