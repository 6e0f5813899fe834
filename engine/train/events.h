#pragma once

#include "track/run_events.h"

namespace kiln::train {

// The events a training run reports, defined in track (below train) so that the trackers never
// include the trainer; here under the names the trainer's callers use.
using track::ConfusionCounts;
using track::PrecisionRecallCurves;
using track::PredictionPreview;
using track::PredictionPreviews;
using track::RunSummary;
using track::StepMetrics;
using track::TrainObserver;
using track::ValidationMetrics;

} // namespace kiln::train
