#pragma once

#include <QList>
#include <QString>
#include <QWidget>

namespace kiln::gui {

// Horizontal bars with their labels and counts, as tall as its rows: the Datasets tab's images
// per class and resolution histogram. Painted with the palette, so it follows the theme; every
// count in the locale's one number format. Beyond kMaxRows bars the largest are shown and the
// rest summed in a last row.
class BarChart : public QWidget {
    Q_OBJECT

public:
    struct Bar {
        QString label;
        qint64 value = 0;
        QString detail; // the bar's tooltip, after its count
    };
    static constexpr int kMaxRows = 24;

    explicit BarChart(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // The bars in their order.
    void setBars(const QList<Bar>& bars);
    const QList<Bar>& bars() const { return bars_; }
    // The rows drawn: the bars, or the largest kMaxRows - 1 of them and one for the rest.
    const QList<Bar>& rows() const { return rows_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    int rowHeight() const;
    int titleHeight() const;
    int rowAt(int y) const;

    QString title_;
    QList<Bar> bars_;
    QList<Bar> rows_;
};

} // namespace kiln::gui
