#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln {

// The number of single-character edits that turn one string into the other.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The positions of the first text that `texts` holds twice (the earlier one first), if any.
std::optional<std::pair<std::size_t, std::size_t>>
first_repeat(const std::vector<std::string>& texts);

// The candidate closest to `input` when it is close enough to be a likely typo, else "".
std::string closest_match(std::string_view input, const std::vector<std::string>& candidates);

// "unknown key; did you mean \"epochs\"?", or the list of known keys when nothing is close.
std::string unknown_key_message(std::string_view key, const std::vector<std::string>& known);

// "a, b or c"
std::string join_alternatives(const std::vector<std::string>& words);

// `text` without the ASCII white space around it (spaces, tabs, line ends).
std::string trimmed(std::string_view text);

// A number as a stream prints it, shortest at six digits: "0.9", "1e-08", "1e+300".
std::string number_text(double value);

// Whether `text` is valid UTF-8: JSON, run records and exported models hold names as UTF-8
// text, and a file name in another encoding (Latin-1 from an old zip) is not.
bool is_utf8(std::string_view text);
// Said after such a name: what it is and how to mend it.
inline constexpr const char* kNotUtf8 =
    " is not UTF-8 text (a name in another encoding, such as Latin-1 from an old zip); rename it "
    "in UTF-8 (convmv -f latin1 -t utf8 -r --notest FOLDER renames a folder's names)";

// `text` safe to print on a terminal: line breaks and tabs become spaces, other control
// characters and bytes that are not UTF-8 \xNN. Names and notes from files others give may
// hold escape sequences that would move the cursor, retitle the window or hide what follows.
std::string terminal_text(std::string_view text);
// The same with line breaks and tabs as \xNN too: a name as it is spelt, for finding the file.
std::string escaped_text(std::string_view text);
// A value read from someone's file, for an error message: in quotes, escaped as escaped_text,
// and cut after `limit` bytes with its whole length said ("\"abc...\" (60000000 bytes)").
std::string quoted_excerpt(std::string_view text, std::size_t limit = 80);

// `text` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line
// break, else as it is.
std::string csv_field(const std::string& text);
// CSV `text` as csv_field writes it, one field at a time: a record of millions of fields costs
// no more than the field being read.
class CsvFieldReader {
public:
    // A byte order mark before the first field (Excel's "CSV UTF-8") is not part of it.
    explicit CsvFieldReader(std::string_view text)
        : text_(text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text) {}
    // The next field into `field`; false once the text is read.
    bool next(std::string& field);
    // Whether the field last read was its record's last.
    bool record_ended() const { return record_ended_; }
    // Whether the field last read was quoted (so "" is a field, not a blank line).
    bool quoted() const { return quoted_; }

private:
    std::string_view text_;
    std::size_t position_ = 0;
    bool record_ended_ = true;
    bool quoted_ = false;
};

// The records of CSV `text`, each a list of fields, as csv_field writes them (a quoted field
// may hold commas, doubled quotes and line breaks). Blank lines are skipped.
std::vector<std::vector<std::string>> csv_records(std::string_view text);

} // namespace kiln
