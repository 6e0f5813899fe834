#include "track/loggers.h"

#include "track/fan_out.h"
#include "track/guarded_logger.h"
#include "track/mlflow.h"
#include "track/run_files.h"
#include "track/run_recorder.h"
#include "track/tensorboard.h"
#include "track/wandb.h"

namespace kiln::track {

std::vector<std::unique_ptr<TrainObserver>> make_loggers(const TrainConfig& config) {
    std::vector<std::unique_ptr<TrainObserver>> loggers;
    const nlohmann::json& settings = config.loggers;
    const bool has = settings.is_object();
    if (!(has && settings.contains("tensorboard") && settings["tensorboard"].is_null())) {
        loggers.push_back(std::make_unique<GuardedLogger>(
            "TensorBoard", std::make_unique<TensorBoardWriter>(config.out)));
    }
    if (has && settings.contains("mlflow") && !settings["mlflow"].is_null()) {
        // Constructed unguarded: a server that cannot be reached at the start is an error
        // before training, as every other check.
        loggers.push_back(std::make_unique<GuardedLogger>(
            "MLflow", std::make_unique<MlflowLogger>(
                          mlflow_settings(settings["mlflow"], config.out), config)));
    }
    if (has && settings.contains("wandb") && !settings["wandb"].is_null()) {
        if (const auto wandb = config::wandb_settings(settings["wandb"])) {
            loggers.push_back(std::make_unique<GuardedLogger>(
                "Weights & Biases", std::make_unique<WandbLogger>(*wandb, config.out)));
        }
    }
    return loggers;
}

RunTracking::RunTracking(const TrainConfig& config, TrainObserver& front_end,
                         const std::vector<log::Line>& earlier) {
    owned_.push_back(std::make_unique<RunFiles>(config, earlier));
    owned_.push_back(std::make_unique<RunRecorder>(config));
    for (auto& logger : make_loggers(config)) {
        owned_.push_back(std::move(logger));
    }
    std::vector<TrainObserver*> observers;
    for (const auto& observer : owned_) {
        observers.push_back(observer.get());
    }
    observers.push_back(&front_end);
    fan_out_ = std::make_unique<FanOut>(std::move(observers));
}

RunTracking::~RunTracking() = default;

TrainObserver& RunTracking::observer() {
    return *fan_out_;
}

} // namespace kiln::track
