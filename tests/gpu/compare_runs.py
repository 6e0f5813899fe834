"""Reads Kiln runs for tests/gpu/check.sh and prints one line of figures.

compare_runs.py CPU_RUN CUDA_RUN      losses of the first steps: mean relative difference
compare_runs.py --throughput RUN      median images/s over the run's second half
compare_runs.py --data-wait SLOW FAST  a loader-bound run's data_wait against the share that
                                      the fast-fed run's GPU step time predicts
compare_runs.py --embeddings A.pt B.pt  largest difference between two embedding files
compare_runs.py --nvml RUN            the run's GPU utilisation and memory against nvidia-smi
compare_runs.py --distributed CPU_RUN RUN  as CPU_RUN RUN, and RUN averaged its gradients over
                                      the process group (profiling/allreduce_time logged)
compare_runs.py --against-eager RATE BATCH RUN  RUN's images/s, GPU step rate (BATCH images a
                                      step) and data_wait against PyTorch eager's RATE images/s:
                                      goal >= 1.0x, data_wait < 10%
Exits with 1 when a comparison fails its bound.
"""
import json
import statistics
import subprocess
import sys
from pathlib import Path


def steps(run):
    return [json.loads(line) for line in (Path(run) / "metrics.jsonl").read_text().splitlines()]


def second_half(values):
    return values[len(values) // 2:]


def main():
    """Prints the comparison's line; returns whether it is within its bound."""
    mode = sys.argv[1]
    if mode == "--throughput":
        rates = [s["images_per_second"] for s in second_half(steps(sys.argv[2]))]
        print(f"{statistics.median(rates):.0f}")
        return True
    elif mode == "--data-wait":
        slow, fast = steps(sys.argv[2])[2:], steps(sys.argv[3])[2:]
        data_wait = statistics.median(s["data_wait"] for s in slow)
        # The GPU work per step is the same in both runs; in the slow one the rest of each cycle
        # is waiting for the loader.
        gpu_step = statistics.median(s["profiling/batch_time"] for s in fast)
        cycle = statistics.median(s["profiling/batch_time"] + s["profiling/data_time"] for s in slow)
        expected = 1 - gpu_step / cycle
        verdict = "ok" if abs(data_wait - expected) <= 0.03 else "OFF BY MORE THAN 3 POINTS"
        print(f"data_wait {data_wait:.3f}, expected {expected:.3f} (GPU step {gpu_step * 1e3:.1f} ms, "
              f"cycle {cycle * 1e3:.1f} ms): {verdict}")
        return verdict == "ok"
    elif mode == "--embeddings":
        import torch
        a, b = torch.load(sys.argv[2]), torch.load(sys.argv[3])
        assert a["filenames"] == b["filenames"]
        difference = (a["embeddings"] - b["embeddings"]).abs().max().item()
        scale = a["embeddings"].abs().max().item()
        cosine = torch.nn.functional.cosine_similarity(
            a["embeddings"].double(), b["embeddings"].double(), dim=1).min().item()
        # cuDNN convolutions in 32-true use TF32 on Ampere and newer, as PyTorch's default
        # (torch.backends.cudnn.allow_tf32): about 1e-3 of relative error a layer.
        verdict = "ok" if cosine >= 0.999 and difference <= 2e-2 * max(scale, 1.0) else "DIFFERENT"
        print(f"largest difference {difference:.2e} of values up to {scale:.2f}, "
              f"lowest cosine similarity of a row {cosine:.6f}: {verdict}")
        return verdict == "ok"
    elif mode == "--nvml":
        last = steps(sys.argv[2])[-1]
        smi = subprocess.run(["nvidia-smi", "--query-gpu=memory.total,memory.used",
                              "--format=csv,noheader,nounits", "-i", "0"],
                             capture_output=True, text=True, check=True).stdout.split(",")
        total = last.get("system/gpu_mem_total_mb/0")
        verdict = "ok" if total is not None and abs(total - float(smi[0])) <= 2 else "MISMATCH"
        print(f"kiln total {total} MB, util {last.get('system/gpu_util/0')}%; "
              f"nvidia-smi total {smi[0].strip()} MB: {verdict}")
        return verdict == "ok"
    elif mode == "--distributed":
        averaged = all("profiling/allreduce_time" in s for s in steps(sys.argv[3]))
        tracks = compare_losses(sys.argv[2], sys.argv[3])
        print("gradients averaged over the process group every step" if averaged
              else "NO profiling/allreduce_time: not the distributed path")
        return tracks and averaged
    elif mode == "--against-eager":
        eager, batch = float(sys.argv[2]), int(sys.argv[3])
        half = second_half(steps(sys.argv[4]))
        rate = statistics.median(s["images_per_second"] for s in half)
        step_rate = batch / statistics.median(s["profiling/batch_time"] for s in half)
        data_wait = statistics.median(s["data_wait"] for s in half)
        verdict = "ok" if rate >= eager and data_wait < 0.10 else "BELOW THE GOAL"
        print(f"kiln {rate:.0f} img/s ({rate / eager:.2f}x eager), its GPU step alone "
              f"{step_rate:.0f} img/s ({step_rate / eager:.2f}x), data_wait {data_wait:.3f}; "
              f"pytorch eager {eager:.0f} img/s: {verdict}")
        return verdict == "ok"
    else:
        return compare_losses(sys.argv[1], sys.argv[2])


def compare_losses(cpu_run, cuda_run):
    """Prints how closely the second run's losses track the first's; returns whether they do."""
    cpu, cuda = steps(cpu_run), steps(cuda_run)
    n = min(len(cpu), len(cuda))
    differences = [abs(c["train_loss"] - g["train_loss"]) / abs(c["train_loss"])
                   for c, g in zip(cpu[:n], cuda[:n])]
    last = statistics.mean(differences[-20:])
    verdict = "ok" if last < 0.05 else "DIVERGED"
    print(f"{n} steps, mean relative loss difference {statistics.mean(differences):.4f}, "
          f"last 20 {last:.4f}; losses {cpu[n-1]['train_loss']:.4f} (cpu) "
          f"{cuda[n-1]['train_loss']:.4f} (cuda): {verdict}")
    return verdict == "ok"


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
