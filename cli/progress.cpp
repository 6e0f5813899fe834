#include "progress.h"

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace kiln::cli {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(200);

std::string bar(double fraction, int width) {
    const int filled = static_cast<int>(fraction * width + 0.5);
    return "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
}

} // namespace

bool is_terminal(const std::ostream& out) {
    return &out == &std::cout && ::isatty(STDOUT_FILENO) == 1;
}

ProgressLine::ProgressLine(std::ostream& out, std::string label, bool terminal)
    : out_(out), label_(std::move(label)), terminal_(terminal),
      started_(std::chrono::steady_clock::now()) {}

void ProgressLine::update(std::int64_t done, std::int64_t total, const std::string& detail) {
    const auto now = std::chrono::steady_clock::now();
    const double fraction = total > 0 ? double(done) / double(total) : 1.0;
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0.0;
    // With a detail (a training run's own figures) the bar shows only the count.
    char numbers[128];
    if (detail.empty()) {
        std::snprintf(numbers, sizeof numbers, "%lld/%lld %5.1f%% %.1f/s",
                      static_cast<long long>(done), static_cast<long long>(total), 100.0 * fraction,
                      rate);
    } else {
        std::snprintf(numbers, sizeof numbers, "%lld/%lld", static_cast<long long>(done),
                      static_cast<long long>(total));
    }
    if (terminal_) {
        if (drawn_ && now - last_draw_ < kRedrawInterval && done < total) {
            return;
        }
        out_ << "\r" << label_ << " " << bar(fraction, 30) << " " << numbers
             << (detail.empty() ? "" : " " + detail) << "\033[K" << std::flush;
        drawn_ = true;
        last_draw_ = now;
        return;
    }
    const int decile = static_cast<int>(fraction * 10);
    if (decile != last_decile_) {
        last_decile_ = decile;
        out_ << label_ << " " << numbers << (detail.empty() ? "" : " " + detail) << std::endl;
    }
}

void ProgressLine::finish() {
    if (terminal_ && drawn_) {
        out_ << "\n";
    }
    drawn_ = false;
}
} // namespace kiln::cli
