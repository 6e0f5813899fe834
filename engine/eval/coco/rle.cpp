#include "eval/coco/rle.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

// The arithmetic below mirrors maskApi's operation by operation; this file is built with
// -ffp-contract=off so that no multiply-add is fused and every rounding happens where it does
// in pycocotools.
namespace kiln::coco {
namespace {

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
constexpr std::uint64_t kLowSevenBits = 0x7f7f7f7f7f7f7f7fULL;

// The high bit of each byte of the result is set where the byte of `word` is non-zero.
std::uint64_t nonzero_bytes(std::uint64_t word) {
    return (((word & kLowSevenBits) + kLowSevenBits) | word) & kHighBits;
}

std::uint64_t load_word(const std::uint8_t* bytes) {
    std::uint64_t word;
    std::memcpy(&word, bytes, sizeof word);
    return word;
}

std::string describe_char(char c) {
    const auto code = static_cast<unsigned char>(c);
    if (code >= 32 && code < 127) {
        return std::string("'") + c + "'";
    }
    return "byte " + std::to_string(code);
}

void check_total(const std::vector<std::uint32_t>& counts, std::uint32_t height,
                 std::uint32_t width) {
    std::uint64_t total = 0;
    for (std::uint32_t count : counts) {
        total += count;
    }
    const std::uint64_t pixels = std::uint64_t{height} * width;
    if (total != pixels) {
        throw Error("its counts add up to " + std::to_string(total) + " pixels, but its size " +
                    std::to_string(height) + "x" + std::to_string(width) + " has " +
                    std::to_string(pixels));
    }
}

} // namespace

Rle encode_mask(const std::uint8_t* pixels, std::uint32_t height, std::uint32_t width,
                std::size_t row_stride) {
    // A run starts wherever a pixel differs from the one before it in column-major order. Within
    // a column that is a difference between vertically adjacent pixels, found here by comparing
    // whole rows 8 bytes at a time; the first pixel of a column is compared with the last pixel
    // of the previous column.
    struct Change {
        std::uint32_t column;
        std::uint32_t row;
    };
    std::vector<Change> changes;
    auto is_set = [&](std::uint32_t row, std::uint32_t column) {
        return pixels[row * row_stride + column] != 0;
    };
    for (std::uint32_t column = 0; column < width && height > 0; ++column) {
        const bool previous = column > 0 && is_set(height - 1, column - 1);
        if (is_set(0, column) != previous) {
            changes.push_back({column, 0});
        }
    }
    for (std::uint32_t row = 1; row < height; ++row) {
        const std::uint8_t* above = pixels + (row - 1) * row_stride;
        const std::uint8_t* current = pixels + row * row_stride;
        std::uint32_t column = 0;
        for (; column + 8 <= width; column += 8) {
            std::uint64_t differ = nonzero_bytes(load_word(above + column)) ^
                                   nonzero_bytes(load_word(current + column));
            while (differ != 0) {
                const auto byte = static_cast<std::uint32_t>(__builtin_ctzll(differ) >> 3);
                changes.push_back({column + byte, row});
                differ &= differ - 1;
            }
        }
        for (; column < width; ++column) {
            if ((above[column] != 0) != (current[column] != 0)) {
                changes.push_back({column, row});
            }
        }
    }

    // Counting sort by column keeps rows ascending within a column.
    std::vector<std::uint32_t> column_start(std::size_t{width} + 1, 0);
    for (const Change& change : changes) {
        ++column_start[change.column + 1];
    }
    for (std::uint32_t column = 0; column < width; ++column) {
        column_start[column + 1] += column_start[column];
    }
    std::vector<std::uint32_t> positions(changes.size());
    for (const Change& change : changes) {
        positions[column_start[change.column]++] = change.column * height + change.row;
    }

    Rle rle{height, width, {}};
    rle.counts.reserve(positions.size() + 1);
    std::uint32_t run_start = 0;
    for (std::uint32_t position : positions) {
        rle.counts.push_back(position - run_start);
        run_start = position;
    }
    rle.counts.push_back(height * width - run_start);
    return rle;
}

std::string encode_counts_string(const Rle& rle) {
    std::string text;
    text.reserve(rle.counts.size() * 2);
    for (std::size_t i = 0; i < rle.counts.size(); ++i) {
        auto value = static_cast<std::int64_t>(rle.counts[i]);
        if (i > 2) {
            value -= static_cast<std::int64_t>(rle.counts[i - 2]);
        }
        bool more = true;
        while (more) {
            char group = static_cast<char>(value & 0x1f);
            value >>= 5;
            more = (group & 0x10) ? value != -1 : value != 0;
            if (more) {
                group |= 0x20;
            }
            text.push_back(static_cast<char>(group + 48));
        }
    }
    return text;
}

Rle decode_counts_string(std::string_view text, std::uint32_t height, std::uint32_t width) {
    Rle rle{height, width, {}};
    rle.counts.reserve(text.size());
    std::size_t offset = 0;
    while (offset < text.size()) {
        const std::size_t start = offset;
        std::int64_t value = 0;
        int groups = 0;
        bool more = true;
        while (more) {
            if (offset >= text.size()) {
                throw Error("its counts string ends in the middle of a number (offset " +
                            std::to_string(start) + ")");
            }
            const int code = static_cast<unsigned char>(text[offset]) - 48;
            if (code < 0 || code > 63) {
                throw Error("its counts string has " + describe_char(text[offset]) + " at offset " +
                            std::to_string(offset) + ", outside COCO's RLE alphabet '0'..'o'");
            }
            if (groups == 7) {
                throw Error("its counts string has a number longer than 7 characters at offset " +
                            std::to_string(start));
            }
            value |= static_cast<std::int64_t>(code & 0x1f) << (5 * groups);
            more = (code & 0x20) != 0;
            ++offset;
            ++groups;
            if (!more && (code & 0x10)) {
                value |= static_cast<std::int64_t>(-1) * (std::int64_t{1} << (5 * groups));
            }
        }
        if (rle.counts.size() > 2) {
            value += rle.counts[rle.counts.size() - 2];
        }
        if (value < 0 || value > std::numeric_limits<std::uint32_t>::max()) {
            throw Error("its counts string decodes to the count " + std::to_string(value) +
                        " at offset " + std::to_string(start) +
                        "; counts must be between 0 and 2^32-1");
        }
        rle.counts.push_back(static_cast<std::uint32_t>(value));
    }
    check_total(rle.counts, height, width);
    if (rle.counts.empty()) {
        rle.counts.push_back(0);
    }
    return rle;
}

Rle rle_from_counts(std::vector<std::uint32_t> counts, std::uint32_t height, std::uint32_t width) {
    check_total(counts, height, width);
    if (counts.empty()) {
        counts.push_back(0);
    }
    return Rle{height, width, std::move(counts)};
}

Rle rle_from_polygon(const double* xy, std::size_t point_count, std::uint32_t height,
                     std::uint32_t width) {
    const double scale = 5;
    const std::size_t k = point_count;
    if (std::uint64_t{height} * width > std::numeric_limits<std::uint32_t>::max()) {
        throw Error("is on an image of " + std::to_string(width) + " x " + std::to_string(height) +
                    " pixels, more than an RLE mask counts (2^32 - 1)");
    }
    for (std::size_t i = 0; i < 2 * k; ++i) {
        // Beyond this the upsampled integer coordinates overflow, and the work grows with the
        // coordinates; no image is that large.
        if (!(std::fabs(xy[i]) <= kLargestPolygonCoordinate)) {
            throw Error("has the polygon coordinate " + std::to_string(xy[i]) +
                        "; coordinates must be within +-1e6 pixels");
        }
    }
    std::vector<int> x(k + 1);
    std::vector<int> y(k + 1);
    for (std::size_t j = 0; j < k; ++j) {
        x[j] = static_cast<int>(scale * xy[j * 2 + 0] + .5);
        y[j] = static_cast<int>(scale * xy[j * 2 + 1] + .5);
    }
    x[k] = x[0];
    y[k] = y[0];

    // Points densely along every edge, in the upsampled grid.
    std::size_t dense_count = 0;
    for (std::size_t j = 0; j < k; ++j) {
        dense_count += static_cast<std::size_t>(
                           std::max(std::abs(x[j] - x[j + 1]), std::abs(y[j] - y[j + 1]))) +
                       1;
    }
    // Each upsampled point costs 8 bytes: four zig-zags between +-1e6 took 856 MB.
    const std::size_t outline_limit = std::min<std::size_t>(
        kMostPolygonPoints,
        kLongestPolygonOutline * std::size_t(scale) * (std::size_t{height} + width) + 4 * k);
    if (dense_count > outline_limit) {
        throw Error("has a polygon whose outline is " +
                    std::to_string(dense_count / std::size_t(scale)) +
                    " px long, more than Kiln rasterises on its " + std::to_string(width) + " x " +
                    std::to_string(height) + " image (" +
                    std::to_string(outline_limit / std::size_t(scale)) +
                    " px); are its coordinates pixels of that image?");
    }
    std::vector<int> u(dense_count);
    std::vector<int> v(dense_count);
    std::size_t m = 0;
    for (std::size_t j = 0; j < k; ++j) {
        int xs = x[j], xe = x[j + 1], ys = y[j], ye = y[j + 1];
        const int dx = std::abs(xe - xs);
        const int dy = std::abs(ys - ye);
        const bool flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
        if (flip) {
            std::swap(xs, xe);
            std::swap(ys, ye);
        }
        if (dx == 0 && dy == 0) {
            // maskApi divides 0 by 0 here; the point's y never matters because its x equals its
            // neighbours' x, and only changes of x make boundary points.
            u[m] = xs;
            v[m] = ys;
            ++m;
            continue;
        }
        const double slope =
            dx >= dy ? static_cast<double>(ye - ys) / dx : static_cast<double>(xe - xs) / dy;
        if (dx >= dy) {
            for (int d = 0; d <= dx; ++d) {
                const int t = flip ? dx - d : d;
                u[m] = t + xs;
                v[m] = static_cast<int>(ys + slope * t + .5);
                ++m;
            }
        } else {
            for (int d = 0; d <= dy; ++d) {
                const int t = flip ? dy - d : d;
                v[m] = t + ys;
                u[m] = static_cast<int>(xs + slope * t + .5);
                ++m;
            }
        }
    }

    // Where the dense boundary crosses a pixel column centre, the first pixel inside below it.
    std::vector<std::uint32_t> starts;
    starts.reserve(m + 1);
    for (std::size_t j = 1; j < m; ++j) {
        if (u[j] == u[j - 1]) {
            continue;
        }
        double xd = static_cast<double>(u[j] < u[j - 1] ? u[j] : u[j] - 1);
        xd = (xd + .5) / scale - .5;
        if (std::floor(xd) != xd || xd < 0 || xd > static_cast<double>(width) - 1) {
            continue;
        }
        double yd = static_cast<double>(v[j] < v[j - 1] ? v[j] : v[j - 1]);
        yd = (yd + .5) / scale - .5;
        if (yd < 0) {
            yd = 0;
        } else if (yd > height) {
            yd = height;
        }
        yd = std::ceil(yd);
        starts.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(xd) * height +
                                                    static_cast<std::uint64_t>(yd)));
    }
    starts.push_back(height * width);
    std::sort(starts.begin(), starts.end());
    std::uint32_t previous = 0;
    for (std::uint32_t& start : starts) {
        const std::uint32_t position = start;
        start -= previous;
        previous = position;
    }
    // Boundary crossings at the same position cancel out; merge the runs around them.
    Rle rle{height, width, {}};
    rle.counts.reserve(starts.size());
    std::size_t j = 0;
    rle.counts.push_back(starts[j++]);
    while (j < starts.size()) {
        if (starts[j] > 0) {
            rle.counts.push_back(starts[j++]);
        } else {
            ++j;
            if (j < starts.size()) {
                rle.counts.back() += starts[j++];
            }
        }
    }
    return rle;
}

Rle rle_from_box(const Box& box, std::uint32_t height, std::uint32_t width) {
    const double xs = box[0], xe = xs + box[2];
    const double ys = box[1], ye = ys + box[3];
    const double corners[8] = {xs, ys, xs, ye, xe, ye, xe, ys};
    return rle_from_polygon(corners, 4, height, width);
}

Rle merge_union(const std::vector<Rle>& masks) {
    if (masks.empty()) {
        return Rle{0, 0, {0}};
    }
    const std::uint32_t height = masks[0].height;
    const std::uint32_t width = masks[0].width;
    std::vector<std::uint32_t> merged = masks[0].counts;
    std::vector<std::uint32_t> next;
    for (std::size_t i = 1; i < masks.size(); ++i) {
        const Rle& b = masks[i];
        if (b.height != height || b.width != width) {
            return Rle{0, 0, {0}};
        }
        const std::vector<std::uint32_t>& a = merged;
        next.clear();
        std::uint32_t ca = a[0], cb = b.counts[0];
        bool v = false, va = false, vb = false;
        std::size_t ia = 1, ib = 1;
        std::uint32_t run = 0;
        std::uint64_t remaining = 1;
        while (remaining > 0) {
            const std::uint32_t c = std::min(ca, cb);
            run += c;
            remaining = 0;
            ca -= c;
            if (ca == 0 && ia < a.size()) {
                ca = a[ia++];
                va = !va;
            }
            remaining += ca;
            cb -= c;
            if (cb == 0 && ib < b.counts.size()) {
                cb = b.counts[ib++];
                vb = !vb;
            }
            remaining += cb;
            const bool was = v;
            v = va || vb;
            if (v != was || remaining == 0) {
                next.push_back(run);
                run = 0;
            }
        }
        merged.swap(next);
    }
    return Rle{height, width, std::move(merged)};
}

std::uint64_t area(const Rle& rle) {
    std::uint64_t pixels = 0;
    for (std::size_t j = 1; j < rle.counts.size(); j += 2) {
        pixels += rle.counts[j];
    }
    return pixels;
}

Box bounding_box(const Rle& rle) {
    const std::uint32_t h = rle.height;
    const std::uint32_t w = rle.width;
    const std::size_t m = rle.counts.size() / 2 * 2;
    if (m == 0 || h == 0 || w == 0) {
        return {0, 0, 0, 0};
    }
    std::uint32_t xs = w, ys = h, xe = 0, ye = 0, cc = 0, xp = 0;
    // maskApi divides every position by the height; positions mostly stay in the same or the
    // next column, so the column is tracked and the division done only on longer jumps.
    std::uint32_t column = 0;
    std::uint64_t column_start = 0;
    for (std::size_t j = 0; j < m; ++j) {
        cc += rle.counts[j];
        const std::uint32_t t = cc - static_cast<std::uint32_t>(j % 2);
        if (t < column_start || t >= column_start + 2 * std::uint64_t{h}) {
            column = t / h;
            column_start = std::uint64_t{column} * h;
        } else if (t >= column_start + h) {
            ++column;
            column_start += h;
        }
        const auto y = static_cast<std::uint32_t>(t - column_start);
        const std::uint32_t x = column;
        if (j % 2 == 0) {
            xp = x;
        } else if (xp < x) {
            ys = 0;
            ye = h - 1;
        }
        xs = std::min(xs, x);
        xe = std::max(xe, x);
        ys = std::min(ys, y);
        ye = std::max(ye, y);
    }
    return {static_cast<double>(xs), static_cast<double>(ys), static_cast<double>(xe - xs + 1),
            static_cast<double>(ye - ys + 1)};
}

double box_iou(const Box& d, const Box& g, bool crowd) {
    const double ga = g[2] * g[3];
    const double da = d[2] * d[3];
    const double w = std::fmin(d[2] + d[0], g[2] + g[0]) - std::fmax(d[0], g[0]);
    if (w <= 0) {
        return 0;
    }
    const double h = std::fmin(d[3] + d[1], g[3] + g[1]) - std::fmax(d[1], g[1]);
    if (h <= 0) {
        return 0;
    }
    const double intersection = w * h;
    const double union_area = crowd ? da : da + ga - intersection;
    return intersection / union_area;
}

double mask_iou_of_overlapping(const Rle& dt, const Rle& gt, bool crowd) {
    if (dt.height != gt.height || dt.width != gt.width) {
        return -1;
    }
    std::uint32_t ca = dt.counts[0], cb = gt.counts[0];
    bool va = false, vb = false;
    std::size_t a = 1, b = 1;
    std::uint32_t intersection = 0, union_area = 0;
    std::uint64_t remaining = 1;
    while (remaining > 0) {
        const std::uint32_t c = std::min(ca, cb);
        if (va || vb) {
            union_area += c;
            if (va && vb) {
                intersection += c;
            }
        }
        remaining = 0;
        ca -= c;
        if (ca == 0 && a < dt.counts.size()) {
            ca = dt.counts[a++];
            va = !va;
        }
        remaining += ca;
        cb -= c;
        if (cb == 0 && b < gt.counts.size()) {
            cb = gt.counts[b++];
            vb = !vb;
        }
        remaining += cb;
    }
    if (intersection == 0) {
        union_area = 1;
    } else if (crowd) {
        union_area = static_cast<std::uint32_t>(area(dt));
    }
    return static_cast<double>(intersection) / static_cast<double>(union_area);
}

std::vector<std::uint8_t> decode_to_pixels(const Rle& rle) {
    std::vector<std::uint8_t> pixels(std::size_t{rle.height} * rle.width, 0);
    std::uint64_t position = 0;
    for (std::size_t j = 0; j < rle.counts.size(); ++j) {
        if (j % 2 == 1) {
            for (std::uint64_t p = position; p < position + rle.counts[j]; ++p) {
                const std::uint64_t column = p / rle.height;
                const std::uint64_t row = p % rle.height;
                pixels[row * rle.width + column] = 1;
            }
        }
        position += rle.counts[j];
    }
    return pixels;
}

} // namespace kiln::coco
