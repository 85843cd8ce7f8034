// Nesting depth and indentation tabs, found in one pass over the text (yaml_text_scan.h).
#include "scenario_file/yaml_text_scan.h"

#include <cstddef>
#include <vector>

namespace parasight {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    YamlTextScan run() {
        std::size_t start = 0;
        int line_number = 1;
        while (start <= text_.size() && !result_.too_deep) {
            std::size_t end = text_.find('\n', start);
            if (end == std::string_view::npos) end = text_.size();
            std::string_view line = text_.substr(start, end - start);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            scan_line(line, line_number);
            if (end == text_.size()) break;
            start = end + 1;
            ++line_number;
        }
        return result_;
    }

private:
    enum class Quote { none, single, double_ };

    void scan_line(std::string_view line, int line_number) {
        line_ = line;
        line_number_ = line_number;
        std::size_t position = 0;
        if (quote_ == Quote::none && flow_depth_ == 0) {
            std::size_t content = 0;
            while (content < line.size() && is_blank(line[content])) ++content;
            const bool blank_or_comment = content == line.size() || line[content] == '#';
            if (block_scalar_indent_) {
                // A block scalar's text goes on while lines are blank or indented past its parent.
                std::size_t spaces = 0;
                while (spaces < line.size() && line[spaces] == ' ') ++spaces;
                if (content == line.size() || static_cast<int>(spaces) > *block_scalar_indent_) return;
                block_scalar_indent_.reset();
            }
            if (blank_or_comment) return;  // tabs are allowed there, and they hold no structure
            if (!result_.first_indentation_tab) {
                for (std::size_t i = 0; i < content; ++i) {
                    if (line[i] == '\t') {
                        result_.first_indentation_tab = TextPosition{line_number, static_cast<int>(i) + 1};
                        break;
                    }
                }
            }
            if (line.substr(content, 3) == "---" || line.substr(content, 3) == "...") {
                indents_.clear();  // a document marker closes every block
            }
            line_indent_ = static_cast<int>(content);
            if (!enter_block(static_cast<int>(content))) return;
            // "- - item": each dash opens one more level, its content's column the level's indentation.
            position = content;
            while (position < line.size() && line[position] == '-' &&
                   (position + 1 == line.size() || is_blank(line[position + 1]))) {
                ++position;
                while (position < line.size() && is_blank(line[position])) ++position;
                if (position < line.size() && !enter_block(static_cast<int>(position))) return;
            }
            node_may_start_ = true;
        }
        scan_characters(position);
    }

    // A block at `indent`: closes the deeper ones, opens this one if new. False when that passes the depth limit.
    bool enter_block(int indent) {
        while (!indents_.empty() && indents_.back() > indent) indents_.pop_back();
        if (indents_.empty() || indents_.back() < indent) indents_.push_back(indent);
        return check_depth(static_cast<std::size_t>(indent));
    }

    bool check_depth(std::size_t position) {
        if (static_cast<int>(indents_.size()) + flow_depth_ <= max_yaml_nesting_depth) return true;
        result_.too_deep = TextPosition{line_number_, static_cast<int>(position) + 1};
        return false;
    }

    void scan_characters(std::size_t position) {
        for (std::size_t i = position; i < line_.size(); ++i) {
            const char c = line_[i];
            if (quote_ == Quote::double_) {
                if (c == '\\') {
                    ++i;  // an escaped character, or a line break continued
                } else if (c == '"') {
                    quote_ = Quote::none;
                    node_may_start_ = false;
                }
                continue;
            }
            if (quote_ == Quote::single) {
                if (c == '\'' && i + 1 < line_.size() && line_[i + 1] == '\'') {
                    ++i;  // '' is a quote inside the scalar
                } else if (c == '\'') {
                    quote_ = Quote::none;
                    node_may_start_ = false;
                }
                continue;
            }
            const bool after_blank = i == 0 || is_blank(line_[i - 1]);
            if (c == '#' && after_blank) return;  // a comment runs to the end of the line
            if (is_blank(c)) continue;
            // Where a node may start, a quote opens a quoted scalar, a bracket a flow collection, | or > a block
            // scalar; elsewhere they are a plain scalar's text ("rock 'n' roll", "layer[0]" in block context).
            const bool at_boundary = after_blank || (flow_depth_ > 0 && is_flow_punctuation(line_[i - 1]));
            const bool node_starts_here = node_may_start_ && at_boundary;
            if ((c == '"' || c == '\'') && node_starts_here) {
                quote_ = c == '"' ? Quote::double_ : Quote::single;
                continue;
            }
            if ((c == '&' || c == '!') && node_starts_here) {
                while (i + 1 < line_.size() && !is_blank(line_[i + 1])) ++i;  // an anchor or a tag: the node follows
                continue;
            }
            // Inside a flow collection every bracket opens or closes one, as yaml-cpp reads them (a plain scalar
            // cannot hold one there).
            if ((c == '[' || c == '{') && (flow_depth_ > 0 || node_starts_here)) {
                ++flow_depth_;
                node_may_start_ = true;
                if (!check_depth(i)) return;
                continue;
            }
            if ((c == ']' || c == '}') && flow_depth_ > 0) {
                --flow_depth_;
                node_may_start_ = false;
                continue;
            }
            if ((c == '|' || c == '>') && flow_depth_ == 0 && node_starts_here) {
                block_scalar_indent_ = line_indent_;
                return;  // the rest of the line is the block scalar's header
            }
            node_may_start_ = is_indicator(i);
        }
    }

    // Whether the character at `i` is an indicator after which a node may start: "key: ", "- ", "? " in block
    // context; "," and "key: " (or "\"key\":") in a flow collection.
    [[nodiscard]] bool is_indicator(std::size_t i) const {
        const char c = line_[i];
        const bool blank_after = i + 1 == line_.size() || is_blank(line_[i + 1]);
        if (flow_depth_ > 0) {
            if (c == ',') return true;
            const bool after_quote = i > 0 && (line_[i - 1] == '"' || line_[i - 1] == '\'');
            return c == ':' && (blank_after || after_quote || line_[i + 1] == ',' || line_[i + 1] == ']' ||
                                line_[i + 1] == '}');
        }
        return (c == ':' || c == '-' || c == '?') && blank_after;
    }

    static bool is_flow_punctuation(char c) { return c == '[' || c == '{' || c == ',' || c == ':'; }

    std::string_view text_;
    YamlTextScan result_;
    std::string_view line_;
    int line_number_ = 0;
    int line_indent_ = 0;
    std::vector<int> indents_;  // the indentation of each open block, outermost first
    int flow_depth_ = 0;
    Quote quote_ = Quote::none;
    bool node_may_start_ = true;
    std::optional<int> block_scalar_indent_;  // the parent's indentation while inside a block scalar
};

}  // namespace

YamlTextScan scan_yaml_text(std::string_view text) { return Scanner(text).run(); }

}  // namespace parasight
