#pragma once

#include "methods/method_names.h"

#include <QWidget>
#include <nlohmann/json.hpp>
#include <opencv2/core/mat.hpp>

class QHBoxLayout;
class QLabel;

namespace kiln::gui {

// The views a method makes of one sample image, as training will see them (crops, flips,
// colour jitter, blur, solarisation; before normalisation). Re-rolled on click.
class AugmentationPreview : public QWidget {
    Q_OBJECT

public:
    explicit AugmentationPreview(QWidget* parent = nullptr);

    // The sample image; decoded once and kept.
    void setImage(const QString& path);
    // The method and transform_args the views follow.
    void setSettings(const std::string& method, const nlohmann::json& transform_args);

    int viewCount() const;
    QImage view(int index) const;
    QString message() const;

public Q_SLOTS:
    void reroll();

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    QString path_;
    cv::Mat image_;
    std::string method_ = methods::default_method();
    nlohmann::json transform_args_ = nlohmann::json::object();
    unsigned long long roll_ = 0;
    QList<QImage> views_;
    QHBoxLayout* row_;
    QLabel* message_;
};

} // namespace kiln::gui
