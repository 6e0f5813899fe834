#pragma once

#include <QImage>
#include <QPixmap>
#include <QString>
#include <opencv2/core/mat.hpp>

namespace kiln::gui {

// A deep copy of an engine image (8-bit grey or BGR, as data::decode_image and the view
// transforms make them) for Qt to show.
QImage toQImage(const cv::Mat& image);

// `file` as a thumbnail at most `side` pixels a side, read with the engine's decoder (so that
// it shows what training reads, WebP too; a JPEG decodes straight to about that size, far less
// work than its full pixels); null when the file cannot be read. Safe on any thread.
QImage decodeThumbnail(const QString& file, int side);

// `file` as class ids, read as training reads masks (its size checked from its header before
// decoding, one channel); empty when it cannot be read. Safe on any thread.
cv::Mat readClassMask(const QString& file);

// What a tile shows until its thumbnail is decoded: a quiet square, so that a grid keeps its
// shape as pictures arrive. `unreadable`: the same square crossed, for a file that cannot be
// read. Drawn in the application palette's colours, on the GUI thread.
QPixmap thumbnailPlaceholder(int side, bool unreadable = false);

} // namespace kiln::gui
