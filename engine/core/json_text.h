#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kiln {

// JSON from files others give (configuration files, a checkpoint's settings, run records) is
// parsed with a nesting limit: nlohmann copies and prints a value recursively, so one nested some
// 50,000 deep would overflow the stack long after it was read.
constexpr int kMaxJsonDepth = 256; // objects and arrays, one inside the other

// The JSON value of `text`; throws kiln::Error naming `what` (e.g. `configuration file "x"`)
// when it is not valid JSON, holds a number no double can, or nests deeper than kMaxJsonDepth.
nlohmann::json parse_json(std::string_view text, const std::string& what);
nlohmann::json parse_json(std::istream& in, const std::string& what);
// The same, but a discarded value (is_discarded()) instead of the error, for text whose
// absence or damage the caller reports in its own words.
nlohmann::json parse_json_or_discarded(std::string_view text);

// `settings`[`group`][`key`], or null where either is missing or not an object: settings read
// back from a file (a checkpoint's, a run record's) may hold any type under any name, and
// nlohmann's value() throws on a group that is not an object.
nlohmann::json setting_in_group(const nlohmann::json& settings, const char* group, const char* key);
// `settings`[`key`] when it is text, else `fallback` (for the same reason: {"task": 5}, read
// back from someone's run.db, hid every run listed after it).
std::string text_setting(const nlohmann::json& settings, const char* key,
                         const std::string& fallback);

} // namespace kiln
