#include "export/json_writer.h"

#include "units/quantity.h"

#include <cmath>
#include <cstdio>

namespace parasight {

void JsonWriter::newline() {
    if (!pretty_) return;
    text_ += '\n';
    text_.append(levels_.size() * 2, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (levels_.empty()) return;
    if (!levels_.back().empty) text_ += ',';
    levels_.back().empty = false;
    newline();
}

JsonWriter& JsonWriter::begin_object() {
    before_value();
    text_ += '{';
    levels_.push_back(Level{true});
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    const bool empty = levels_.back().empty;
    levels_.pop_back();
    if (!empty) newline();
    text_ += '}';
    if (levels_.empty() && pretty_) text_ += '\n';
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    before_value();
    text_ += '[';
    levels_.push_back(Level{false});
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    const bool empty = levels_.back().empty;
    levels_.pop_back();
    if (!empty) newline();
    text_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    before_value();
    write_string(name);
    text_ += pretty_ ? ": " : ":";
    after_key_ = true;
    return *this;
}

void JsonWriter::drain(std::ostream& out) {
    out << text_;
    text_.clear();
}

JsonWriter& JsonWriter::value(double number) {
    if (!std::isfinite(number)) return null();
    before_value();
    // A double always reads back as one: 20 digits without a point would be an integer to most JSON readers, and
    // one past 2^63 overflows theirs.
    const std::string shortest = units::format_number(number);
    text_ += shortest;
    if (shortest.find_first_of(".e") == std::string::npos) text_ += ".0";
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
    before_value();
    text_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    before_value();
    text_ += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    before_value();
    write_string(text);
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    text_ += "null";
    return *this;
}

void JsonWriter::write_string(std::string_view text) {
    text_ += '"';
    for (const char c : text) {
        switch (c) {
        case '"': text_ += "\\\""; break;
        case '\\': text_ += "\\\\"; break;
        case '\n': text_ += "\\n"; break;
        case '\r': text_ += "\\r"; break;
        case '\t': text_ += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                text_ += escaped;
            } else {
                text_ += c;
            }
        }
    }
    text_ += '"';
}

}  // namespace parasight
