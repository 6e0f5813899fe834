#include "track/loggers.h"

#include "track/mlflow.h"
#include "track/tensorboard.h"

namespace kiln::track {

std::vector<std::unique_ptr<train::TrainObserver>> make_loggers(const TrainConfig& config) {
    std::vector<std::unique_ptr<train::TrainObserver>> loggers;
    const nlohmann::json& settings = config.loggers;
    const bool has = settings.is_object();
    if (!(has && settings.contains("tensorboard") && settings["tensorboard"].is_null())) {
        loggers.push_back(std::make_unique<TensorBoardWriter>(config.out));
    }
    if (has && settings.contains("mlflow") && !settings["mlflow"].is_null()) {
        loggers.push_back(std::make_unique<MlflowLogger>(
            mlflow_settings(settings["mlflow"], config.out), config));
    }
    return loggers;
}

} // namespace kiln::track
