#include "data/data_yaml.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/text.h"

#include <charconv>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Where `separator` next lies in `text` from `from` outside quoted scalars, or npos. A quote
// opens a scalar only where one begins (men's is plain text); '' inside '...' and \" inside
// "..." are quotes within it.
std::size_t find_unquoted(const std::string& text, const std::string& separator,
                          std::size_t from = 0) {
    char quote = 0;
    bool scalar_start = true;
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (quote != 0) {
            if (quote == '"' && c == '\\') {
                ++i;
            } else if (c == quote) {
                quote = 0;
            }
            continue;
        }
        if (scalar_start && (c == '\'' || c == '"')) {
            quote = c;
            continue;
        }
        if (text.compare(i, separator.size(), separator) == 0) {
            return i;
        }
        const bool list_entry =
            c == '-' && scalar_start && i + 1 < text.size() && (text[i + 1] == ' ');
        if (c == ',' || c == '[' || c == '{' || c == ':') {
            scalar_start = true;
        } else if (c != ' ' && c != '\t' && !list_entry) {
            scalar_start = false;
        }
    }
    return std::string::npos;
}

// A line's text without its comment and the white space around it.
std::string without_comment(const std::string& text) {
    return trimmed(std::string_view(text).substr(0, find_unquoted(text, " #")));
}

void append_utf8(std::string& text, std::uint32_t code) {
    if (code < 0x80) {
        text += char(code);
    } else if (code < 0x800) {
        text += char(0xC0 | (code >> 6));
        text += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        text += char(0xE0 | (code >> 12));
        text += char(0x80 | ((code >> 6) & 0x3F));
        text += char(0x80 | (code & 0x3F));
    } else {
        text += char(0xF0 | (code >> 18));
        text += char(0x80 | ((code >> 12) & 0x3F));
        text += char(0x80 | ((code >> 6) & 0x3F));
        text += char(0x80 | (code & 0x3F));
    }
}

// A double-quoted scalar's escape at `text[i]` (after the backslash) appended to `out`; false
// for one YAML does not have. `i` ends on its last character.
bool append_escape(const std::string& text, std::size_t& i, std::string& out) {
    static const std::string kSingle = "0abtnvfre \"/\\N_LP\t";
    static const std::vector<std::string> kMeaning = {std::string(1, '\0'),
                                                      "\a",
                                                      "\b",
                                                      "\t",
                                                      "\n",
                                                      "\v",
                                                      "\f",
                                                      "\r",
                                                      "\x1b",
                                                      " ",
                                                      "\"",
                                                      "/",
                                                      "\\",
                                                      "\xc2\x85",
                                                      "\xc2\xa0",
                                                      "\xe2\x80\xa8",
                                                      "\xe2\x80\xa9",
                                                      "\t"};
    const char c = text[i];
    if (const std::size_t at = kSingle.find(c); at != std::string::npos) {
        out += kMeaning[at];
        return true;
    }
    const std::size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (digits == 0 || i + digits >= text.size()) {
        return false;
    }
    std::uint32_t code = 0;
    const auto [end, error] =
        std::from_chars(text.data() + i + 1, text.data() + i + 1 + digits, code, 16);
    if (error != std::errc() || end != text.data() + i + 1 + digits || code > 0x10FFFF) {
        return false;
    }
    append_utf8(out, code);
    i += digits;
    return true;
}

// A name or value as YAML reads it: plain text as it stands; '...' with '' for a quote; "..."
// with YAML's escapes. nullopt for a quote left open, a lone quote inside, or an unknown escape.
std::optional<std::string> unquoted(const std::string& given) {
    const std::string text = without_comment(given);
    if (text.empty() || (text.front() != '\'' && text.front() != '"')) {
        return text;
    }
    const char quote = text.front();
    if (text.size() < 2 || text.back() != quote) {
        return std::nullopt;
    }
    std::string inner;
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
        if (quote == '\'' && text[i] == '\'') {
            if (text[++i] != '\'' || i + 1 >= text.size()) {
                return std::nullopt;
            }
            inner += '\'';
        } else if (quote == '"' && text[i] == '\\') {
            if (++i + 1 >= text.size() || !append_escape(text, i, inner)) {
                return std::nullopt;
            }
        } else if (quote == '"' && text[i] == '"') {
            return std::nullopt;
        } else {
            inner += text[i];
        }
    }
    return inner;
}

// `text`'s parts between the `separator`s outside quoted scalars.
std::vector<std::string> split_unquoted(const std::string& text, const std::string& separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at = find_unquoted(text, separator); at != std::string::npos;
         at = find_unquoted(text, separator, start)) {
        parts.push_back(text.substr(start, at - start));
        start = at + separator.size();
    }
    parts.push_back(text.substr(start));
    return parts;
}

// Reads one file line by line; `block_` is the top-level key whose indented entries follow.
class DataYamlReader {
public:
    explicit DataYamlReader(const fs::path& file) : file_(file) {}

    json read() {
        refuse_special_file(file_, "data");
        std::ifstream in(file_);
        if (!in) {
            throw ConfigError(
                std::vector<ConfigIssue>{{"data", "\"" + file_.string() +
                                                      "\" cannot be read; give an Ultralytics "
                                                      "data.yaml"}});
        }
        std::string line;
        while (std::getline(in, line)) {
            ++number_;
            const std::string text = without_comment(line);
            if (text.empty() || text[0] == '#') {
                continue;
            }
            if (line[0] == ' ' || line[0] == '\t') {
                read_indented(text);
            } else {
                read_top_level(text);
            }
        }
        return result_;
    }

private:
    [[noreturn]] void bad(const std::string& what) const {
        throw Error(file_.string() + ":" + std::to_string(number_) + ": " + what +
                    "; Kiln reads data.yaml's path, train, val and names");
    }

    std::string scalar(const std::string& text) const {
        const std::string plain = without_comment(text);
        if (!plain.empty() && (plain.front() == '&' || plain.front() == '*')) {
            // Read as text, an alias would become a class name or a path that is not there.
            bad(quoted_excerpt(plain) +
                " is a YAML anchor or alias, which Kiln does not follow; write the value out "
                "where it is used");
        }
        const std::optional<std::string> value = unquoted(text);
        if (!value) {
            bad(quoted_excerpt(without_comment(text)) +
                " is quoted, but its quote is not closed, or it holds a quote or an escape YAML "
                "does not take there");
        }
        return *value;
    }

    void read_top_level(const std::string& text) {
        const auto colon = text.find(':');
        if (colon == std::string::npos) {
            bad("\"" + text + "\" is not \"key: value\"");
        }
        block_ = without_comment(text.substr(0, colon));
        const std::string value = without_comment(text.substr(colon + 1));
        if (value.empty()) {
            return;
        }
        if (block_ == "names" && (value.front() == '[' || value.front() == '{')) {
            result_["names"] = flow_names(value);
        } else {
            result_[block_] = scalar(value);
        }
    }

    // An entry of `names` on its own line: "- name" or "id: name".
    void read_indented(const std::string& text) {
        if (block_ != "names") {
            return; // entries of keys Kiln does not read
        }
        json& names = result_["names"];
        if (text.rfind("- ", 0) == 0) {
            if (!names.is_array()) {
                names = json::array();
            }
            names.push_back(scalar(text.substr(2)));
            return;
        }
        const auto colon = find_unquoted(text, ":");
        if (colon == std::string::npos) {
            bad("a names entry is neither \"id: name\" nor \"- name\"");
        }
        if (!names.is_object()) {
            names = json::object();
        }
        names[scalar(text.substr(0, colon))] = scalar(text.substr(colon + 1));
    }

    // `names: [a, b]` or `names: {0: a, 1: b}`.
    json flow_names(const std::string& value) const {
        const bool list = value.front() == '[';
        if (value.back() != (list ? ']' : '}')) {
            bad("names is not closed on its line");
        }
        json names = list ? json::array() : json::object();
        std::vector<std::string> items = split_unquoted(value.substr(1, value.size() - 2), ",");
        if (without_comment(items.back()).empty()) {
            items.pop_back(); // YAML allows a comma after the last entry, and [] holds none
        }
        for (const std::string& item : items) {
            if (without_comment(item).empty()) {
                bad("names has an empty entry");
            }
            if (list) {
                names.push_back(scalar(item));
                continue;
            }
            const auto separator = find_unquoted(item, ":");
            if (separator == std::string::npos) {
                bad("a names entry is not \"id: name\"");
            }
            names[scalar(item.substr(0, separator))] = scalar(item.substr(separator + 1));
        }
        return names;
    }

    const fs::path& file_;
    json result_ = json::object();
    std::string block_;
    int number_ = 0;
};

} // namespace

json read_data_yaml(const fs::path& file) {
    return DataYamlReader(file).read();
}

} // namespace kiln::data
