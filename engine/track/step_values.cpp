#include "track/step_values.h"

#include <chrono>
#include <map>
#include <optional>
#include <unistd.h>

namespace kiln::track {

MetricValues step_values(const StepMetrics& metrics) {
    MetricValues values = {{"train_loss", metrics.loss},
                           {"lr", metrics.lr},
                           {"profiling/batch_time", metrics.batch_time},
                           {"profiling/data_time", metrics.data_time},
                           {"data_wait", metrics.data_wait},
                           {"images_per_second", metrics.images_per_second},
                           {"system/cpu_util", metrics.cpu_util},
                           {"system/process_cpu_util", metrics.process_cpu_util},
                           {"system/mem_rss_mb", metrics.rss_mb}};
    if (metrics.allreduce_time) {
        values.emplace_back("profiling/allreduce_time", *metrics.allreduce_time);
    }
    for (const system::GpuSample& gpu : metrics.gpus) {
        const std::string index = std::to_string(gpu.index);
        if (gpu.util_percent) {
            values.emplace_back("system/gpu_util/" + index, *gpu.util_percent);
        }
        if (gpu.memory_used_mb) {
            values.emplace_back("system/gpu_mem_used_mb/" + index, *gpu.memory_used_mb);
        }
        if (gpu.memory_total_mb) {
            values.emplace_back("system/gpu_mem_total_mb/" + index, *gpu.memory_total_mb);
        }
    }
    return values;
}

RecordedHistory recorded_history(const std::vector<MetricPoint>& points,
                                 const std::string& watch_metric) {
    std::map<std::int64_t, std::vector<const MetricPoint*>> by_step;
    for (const MetricPoint& point : points) {
        by_step[point.step].push_back(&point);
    }
    // Every step key step_values() writes, and where its value goes back.
    const std::map<std::string, double StepMetrics::*> fields = {
        {"train_loss", &StepMetrics::loss},
        {"lr", &StepMetrics::lr},
        {"profiling/batch_time", &StepMetrics::batch_time},
        {"profiling/data_time", &StepMetrics::data_time},
        {"data_wait", &StepMetrics::data_wait},
        {"images_per_second", &StepMetrics::images_per_second},
        {"system/cpu_util", &StepMetrics::cpu_util},
        {"system/process_cpu_util", &StepMetrics::process_cpu_util},
        {"system/mem_rss_mb", &StepMetrics::rss_mb}};
    const auto gpu_index = [](const std::string& key, const std::string& prefix) {
        return key.rfind(prefix, 0) == 0 ? std::stoi(key.substr(prefix.size())) : -1;
    };
    RecordedHistory history;
    std::optional<double> best;
    for (const auto& [step, rows] : by_step) {
        StepMetrics metrics;
        ValidationMetrics validation;
        std::map<int, system::GpuSample> gpus;
        double wall_time = 0;
        bool has_step = false, has_validation = false;
        for (const MetricPoint* point : rows) {
            const std::string& key = point->key;
            if (key.rfind("val_", 0) == 0) { // val_loss, val_metric/...
                validation.values.emplace_back(key, point->value);
                validation.step = step;
                validation.epoch = point->epoch;
                has_validation = true;
                continue;
            }
            has_step = true;
            metrics.step = step;
            metrics.epoch = point->epoch;
            wall_time = point->wall_time;
            if (const auto field = fields.find(key); field != fields.end()) {
                metrics.*(field->second) = point->value;
            } else if (key == "profiling/allreduce_time") {
                metrics.allreduce_time = point->value;
            } else if (const int gpu = gpu_index(key, "system/gpu_util/"); gpu >= 0) {
                gpus[gpu].index = gpu;
                gpus[gpu].util_percent = point->value;
            } else if (const int used = gpu_index(key, "system/gpu_mem_used_mb/"); used >= 0) {
                gpus[used].index = used;
                gpus[used].memory_used_mb = point->value;
            } else if (const int total = gpu_index(key, "system/gpu_mem_total_mb/"); total >= 0) {
                gpus[total].index = total;
                gpus[total].memory_total_mb = point->value;
            }
        }
        if (has_step) {
            for (const auto& [index, gpu] : gpus) {
                metrics.gpus.push_back(gpu);
            }
            history.steps.push_back(metrics);
            history.step_wall_times.push_back(wall_time);
        }
        if (has_validation) {
            validation.watched = watch_metric;
            for (const auto& [key, value] : validation.values) {
                if (key == watch_metric && (!best || value > *best)) {
                    best = value;
                    validation.best = true;
                }
            }
            history.validations.push_back(validation);
        }
    }
    return history;
}

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return "";
    }
    return name;
}

double unix_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace kiln::track
