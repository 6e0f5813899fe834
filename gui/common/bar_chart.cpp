#include "common/bar_chart.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace kiln::gui {

BarChart::BarChart(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void BarChart::setTitle(const QString& title) {
    title_ = title;
    updateGeometry();
    update();
}

void BarChart::setBars(const QList<Bar>& bars) {
    bars_ = bars;
    rows_ = bars;
    if (rows_.size() > kMaxRows) {
        std::stable_sort(rows_.begin(), rows_.end(),
                         [](const Bar& a, const Bar& b) { return a.value > b.value; });
        Bar rest{tr("%Ln more", nullptr, int(rows_.size() - (kMaxRows - 1))), 0, {}};
        for (qsizetype i = kMaxRows - 1; i < rows_.size(); ++i) {
            rest.value += rows_[i].value;
        }
        rows_.resize(kMaxRows - 1);
        rows_.append(rest);
    }
    updateGeometry();
    update();
}

int BarChart::rowHeight() const {
    return fontMetrics().height() + 4;
}

int BarChart::titleHeight() const {
    return title_.isEmpty() ? 0 : fontMetrics().height() + 6;
}

int BarChart::rowAt(int y) const {
    const int row = (y - titleHeight()) / rowHeight();
    return y >= titleHeight() && row < rows_.size() ? row : -1;
}

QSize BarChart::sizeHint() const {
    return {320, titleHeight() + int(rows_.size()) * rowHeight() + 2};
}

QSize BarChart::minimumSizeHint() const {
    return {160, sizeHint().height()};
}

bool BarChart::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos().y());
        if (row < 0) {
            QToolTip::hideText();
        } else {
            const Bar& bar = rows_[row];
            QToolTip::showText(
                help->globalPos(),
                QStringLiteral("%1: %2%3")
                    .arg(bar.label, QLocale().toString(bar.value),
                         bar.detail.isEmpty() ? QString() : QStringLiteral(" ") + bar.detail),
                this);
        }
        return true;
    }
    return QWidget::event(event);
}

void BarChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QFontMetrics metrics = fontMetrics();
    const QLocale locale;
    int y = 0;
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(0, 0, width(), titleHeight()), Qt::AlignLeft | Qt::AlignVCenter,
                         title_);
        painter.setFont(font());
        y = titleHeight();
    }
    qint64 largest = 1;
    int label_width = 0;
    int value_width = 0;
    for (const Bar& bar : rows_) {
        largest = std::max(largest, bar.value);
        label_width =
            std::max(label_width, metrics.horizontalAdvance(bar.label) + 2); // elidedText rounds up
        value_width = std::max(value_width, metrics.horizontalAdvance(locale.toString(bar.value)));
    }
    label_width = std::min(label_width, width() * 2 / 5);
    const int bar_left = label_width + 8;
    const int bar_space = std::max(1, width() - bar_left - value_width - 8);
    const QColor bar_colour = palette().color(QPalette::Highlight);
    for (const Bar& bar : rows_) {
        const QRect label(0, y, label_width, rowHeight());
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(bar.label, Qt::ElideMiddle, label_width));
        const int length = int(double(bar_space) * double(bar.value) / double(largest));
        painter.fillRect(
            QRect(bar_left, y + 2, std::max(length, bar.value > 0 ? 1 : 0), rowHeight() - 4),
            bar_colour);
        painter.drawText(QRect(bar_left + length + 4, y, value_width + 4, rowHeight()),
                         Qt::AlignLeft | Qt::AlignVCenter, locale.toString(bar.value));
        y += rowHeight();
    }
}

} // namespace kiln::gui
