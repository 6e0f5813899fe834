#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace kiln {

namespace {

bool continues(std::string_view text, std::size_t at, unsigned char low = 0x80,
               unsigned char high = 0xBF) {
    if (at >= text.size()) {
        return false;
    }
    const auto byte = static_cast<unsigned char>(text[at]);
    return byte >= low && byte <= high;
}

// The length of the UTF-8 character at `text[at]`, or 0 where no valid one starts (a stray
// continuation byte, an overlong form, a surrogate, a code point past U+10FFFF, a cut end).
std::size_t utf8_length(std::string_view text, std::size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    if (lead < 0x80) {
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        return continues(text, at + 1) ? 2 : 0;
    }
    if (lead >= 0xE0 && lead <= 0xEF) {
        const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
        const unsigned char high = lead == 0xED ? 0x9F : 0xBF;
        return continues(text, at + 1, low, high) && continues(text, at + 2) ? 3 : 0;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
        return continues(text, at + 1, low, high) && continues(text, at + 2) &&
                       continues(text, at + 3)
                   ? 4
                   : 0;
    }
    return 0;
}

std::string shown_text(std::string_view text, bool line_breaks_as_spaces) {
    static const char* hex = "0123456789abcdef";
    std::string shown;
    shown.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        const std::size_t length = utf8_length(text, i);
        if (line_breaks_as_spaces && (c == '\n' || c == '\r' || c == '\t')) {
            shown += ' ';
        } else if (byte < 0x20 || byte == 0x7f || length == 0) {
            shown += {'\\', 'x', hex[byte >> 4], hex[byte & 15]};
        } else {
            shown.append(text.substr(i, length));
            i += length;
            continue;
        }
        ++i;
    }
    return shown;
}

} // namespace

bool is_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8_length(text, i);
        if (length == 0) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string terminal_text(std::string_view text) {
    return shown_text(text, true);
}

std::string escaped_text(std::string_view text) {
    return shown_text(text, false);
}

std::string quoted_excerpt(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) {
        return "\"" + escaped_text(text) + "\"";
    }
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut; // not inside a UTF-8 character
    }
    return "\"" + escaped_text(text.substr(0, cut)) + "...\" (" + std::to_string(text.size()) +
           " bytes)";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> previous(b.size() + 1);
    std::vector<std::size_t> current(b.size() + 1);
    std::iota(previous.begin(), previous.end(), 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            current[j] =
                std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::pair<std::size_t, std::size_t>>
first_repeat(const std::vector<std::string>& texts) {
    std::unordered_map<std::string_view, std::size_t> first;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (const auto [earlier, added] = first.emplace(texts[i], i); !added) {
            return std::pair{earlier->second, i};
        }
    }
    return std::nullopt;
}

std::string closest_match(std::string_view input, const std::vector<std::string>& candidates) {
    // A third of the word may be wrong, but always allow two edits ("epoch" for "epochs").
    const std::size_t tolerance = std::max<std::size_t>(2, input.size() / 3);
    std::string best;
    std::size_t best_distance = tolerance + 1;
    for (const std::string& candidate : candidates) {
        // The distance is at least the lengths' difference: a far longer key is measured no
        // further (a 50 MB key took 80 s).
        const std::size_t longer = std::max(input.size(), candidate.size());
        if (longer - std::min(input.size(), candidate.size()) >= best_distance) {
            continue;
        }
        const std::size_t distance = edit_distance(input, candidate);
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

std::string unknown_key_message(std::string_view key, const std::vector<std::string>& known) {
    const std::string suggestion = closest_match(key, known);
    return suggestion.empty() ? "unknown key; known keys are " + join_alternatives(known)
                              : "unknown key; did you mean \"" + suggestion + "\"?";
}

std::string join_alternatives(const std::vector<std::string>& words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) {
            text += i + 1 == words.size() ? " or " : ", ";
        }
        text += words[i];
    }
    return text;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

bool CsvFieldReader::next(std::string& field) {
    if (position_ >= text_.size() && record_ended_) {
        return false;
    }
    field.clear();
    quoted_ = false;
    record_ended_ = true;
    bool in_quotes = false;
    for (; position_ < text_.size(); ++position_) {
        const char c = text_[position_];
        if (in_quotes) {
            if (c == '"' && position_ + 1 < text_.size() && text_[position_ + 1] == '"') {
                field += '"';
                ++position_;
            } else if (c == '"') {
                in_quotes = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            in_quotes = quoted_ = true;
        } else if (c == ',' || c == '\n') {
            record_ended_ = c == '\n';
            ++position_;
            break;
        } else if (c != '\r') {
            field += c;
        }
    }
    return true;
}

std::vector<std::vector<std::string>> csv_records(std::string_view text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> fields;
    std::string field;
    CsvFieldReader reader(text);
    while (reader.next(field)) {
        const bool blank = fields.empty() && field.empty() && !reader.quoted();
        fields.push_back(field);
        if (reader.record_ended()) {
            if (!blank) {
                records.push_back(std::move(fields));
            }
            fields.clear();
        }
    }
    return records;
}

std::string trimmed(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\v\f";
    const std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) {
        return {};
    }
    return std::string(text.substr(first, text.find_last_not_of(kSpace) - first + 1));
}

std::string number_text(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace kiln
