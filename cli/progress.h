#pragma once

#include "track/remaining_time.h"

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace kiln::cli {

using track::clock_text;

// A one-line progress display: redrawn in place at most 5 times a second on a terminal, and
// written as plain lines (one per 10%) when the output is a file or a pipe.
class ProgressLine {
public:
    ProgressLine(std::ostream& out, std::string label, bool terminal);

    void update(std::int64_t done, std::int64_t total, const std::string& detail = {});
    void finish();

private:
    std::ostream& out_;
    std::string label_;
    bool terminal_;
    bool drawn_ = false;
    int last_decile_ = -1;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point last_draw_;
};

bool is_terminal(const std::ostream& out);

} // namespace kiln::cli
