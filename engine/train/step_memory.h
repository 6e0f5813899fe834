#pragma once

#include "data/sample_source.h"
#include "methods/method_names.h"
#include "train/step_probe.h"

#include <string>
#include <vector>

namespace kiln::train {

// A run's peak memory beyond what it held before its first step, per sample of its batch, over
// what probe_step_memory counted of a sample's step of the backbone alone: the loader's batches,
// and the freed memory the allocator keeps for the next step (the probe of a pretraining run now
// steps its method's heads too). ResNet-18 at 224 px on
// this CPU, SimCLR, DINO and classification at batch 128 and DINO at 64:
//   - tcmalloc (system::malloc_is_tcmalloc, the programs' malloc where packaged): 1.07-1.10
//     over a start of 0.9 GB (1.11-1.19 over 0.6), so 1.05-1.3;
//   - glibc's heap with raised thresholds (system::HeapReuseScope): 1.7-1.8 (DINO), 2.3
//     (classification) and 2.5 (SimCLR): SimCLR at batch 128 peaks at 13.4 GB, 6.8 with tcmalloc.
struct PeakPerProbed {
    double least = 0;
    double most = 0;
};
PeakPerProbed run_peak_per_probed();

// What a CPU training step of `batch` samples takes beyond what the process holds before it: the
// activations kept for the backward pass, which grow with the batch, and what does not (the
// gradients, the optimizer's state, a weight average), against the memory this machine has free:
// a range, from the least to the most of the measured ratios.
struct StepMemory {
    int batch = 0;
    ProbedStepMemory probed; // probe_step_memory
    // Copies of the trained parameters the run keeps beside them (parameter_copies).
    int parameter_copies = 0;
    double available_mb = 0; // system::available_memory_mb
    std::vector<data::ViewShape> views;
    PeakPerProbed peak_per_probed = run_peak_per_probed();

    // What a step takes whatever its batch, with what the probe counted of it at the peak's
    // `ratio` (the heap keeps freed blocks of a step's own copies as it keeps its samples').
    double per_step_mb(double ratio) const;
    double least_mb(int samples) const;
    double most_mb(int samples) const;
    // The largest power-of-two batch whose step leaves a fifth of what is free at the most it
    // may take; 0 when even one sample would not.
    int largest_comfortable_batch() const;
};

// The copies of its trained parameters a run with `optimizer` keeps: AdamW's two moments, the
// momentum of SGD and LARS, and a weight average (ema_decay).
int parameter_copies(const methods::OptimizerDefaults& optimizer);

// Before a run. A step that would not fit in the free memory even at the least it takes is a
// kiln::Error that names batch_size and a batch that fits: the system would otherwise kill the
// run at its first step, or the desktop would stall swapping. The returned text, when not
// empty, is a warning: a step that may leave less than a fifth free.
std::string check_step_memory(const StepMemory& memory);
// "a training step of 128 samples needs 8.4 GB to 12.4 GB on the CPU; 22.3 GB free", for
// train.log.
std::string step_memory_text(const StepMemory& memory);

// The batch for inference on the CPU (embed, predict, kNN) at `view` through `forward`, whose
// size may come from a file someone else made: `batch` when a batch of it leaves a fifth of the
// free memory, else the largest that does (with a warning). A kiln::Error, naming the size
// and `size_setting`, where a single image would not fit: the system would otherwise kill the
// process or stall swapping. Small views are not probed: they fit whatever the model.
int cpu_inference_batch(int batch, const InferenceForward& forward, const data::ViewShape& view,
                        const std::string& size_setting);
// Its arithmetic, given the probe's MiB per image and the free MiB.
int inference_batch_that_fits(int batch, double per_image_mb, double available_mb,
                              const data::ViewShape& view, const std::string& size_setting);

// "2 views of 224 x 224 px and 6 of 96 x 96 px", "1 view of 32 x 32 px".
std::string views_text(const std::vector<data::ViewShape>& views);

} // namespace kiln::train
