"""The real peers of Kiln's 2-D maps, for bench_projection: scikit-learn's Barnes-Hut t-SNE and
umap-learn's UMAP, on the points the benchmark wrote, with the settings Kiln's maps use.

    python projection_peers.py --method tsne|umap|umap-parallel --data POINTS.npy --out MAP.npy
                               [--seed 0] [--perplexity 30] [--iterations 750]
                               [--neighbours 15] [--min-dist 0.1]

    tsne           sklearn.manifold.TSNE: PCA start, learning_rate='auto', n_jobs=-1
    umap           umap.UMAP with random_state=seed, which makes umap-learn single-threaded
    umap-parallel  umap.UMAP without a seed and n_jobs=-1: every core, not reproducible

Writes the map as a float32 points x 2 .npy and prints one JSON line: the wall seconds of
fit_transform alone (imports, reading the data and umap-learn's warm-up excluded), and in MiB
the peak resident memory during the fit and the resident memory when it began. The peak is
VmHWM reset just before the fit (which resets ru_maxrss too); where the reset is refused,
"peak_reset" is false and the peak is the process's so far. Where the package is missing it
prints {"name": ..., "skipped": why} instead.
"""
import argparse
import contextlib
import inspect
import json
import os
import sys
import time

# umap-learn compiles its Numba code on first use, for more time than a 10,000-point fit takes.
# A fit on a sample first keeps that out of the timing; from 4096 points on the sample takes the
# same path as the timed fit (NN-descent rather than exact neighbours).
WARM_UP_POINTS = 5000


def status_mib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return None


def reset_peak():
    """Resets VmHWM to the present resident memory (Linux 4.0 on), so the peak is the fit's."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def make_tsne(args):
    from sklearn.manifold import TSNE

    # max_iter was n_iter before scikit-learn 1.5.
    iterations = "max_iter" if "max_iter" in inspect.signature(TSNE).parameters else "n_iter"
    return TSNE(n_components=2, perplexity=args.perplexity, early_exaggeration=12.0,
                learning_rate="auto", init="pca", method="barnes_hut", angle=0.5,
                n_jobs=-1, random_state=args.seed, **{iterations: args.iterations})


def make_umap(args, init):
    import umap

    if args.method == "umap":
        return umap.UMAP(n_neighbors=args.neighbours, min_dist=args.min_dist, init=init,
                         random_state=args.seed, n_jobs=1)
    return umap.UMAP(n_neighbors=args.neighbours, min_dist=args.min_dist, init=init, n_jobs=-1)


def warm_up_umap(args, data):
    """Compiles umap-learn's code; returns the start it takes ('pca' where this version has it,
    as Kiln's maps) and the seconds the warm-up took."""
    started = time.perf_counter()
    sample = data[:WARM_UP_POINTS]
    try:
        make_umap(args, "pca").fit_transform(sample)
        init = "pca"
    except ValueError:
        init = "spectral"
        make_umap(args, init).fit_transform(sample)
    return init, time.perf_counter() - started


def threads_of(method):
    if method == "umap":
        return 1
    if method == "umap-parallel":
        import numba

        return numba.get_num_threads()
    return os.cpu_count()


def peer_name(method):
    return {"tsne": "scikit-learn TSNE", "umap": "umap-learn (seeded)",
            "umap-parallel": "umap-learn (n_jobs=-1)"}[method]


def missing_package(method):
    try:
        if method == "tsne":
            import sklearn.manifold  # noqa: F401
        else:
            import umap  # noqa: F401
    except ImportError as error:
        return "%s is not installed in %s (%s)" % (
            "scikit-learn" if method == "tsne" else "umap-learn", sys.executable, error)
    return None


def fit(args, data):
    report = {"name": peer_name(args.method), "threads": threads_of(args.method)}
    if args.method == "tsne":
        model = make_tsne(args)
        report["init"] = "pca"
    else:
        report["init"], report["warmup_seconds"] = warm_up_umap(args, data)
        model = make_umap(args, report["init"])
    report["peak_reset"] = reset_peak()
    report["start_mib"] = status_mib("VmRSS")
    started = time.perf_counter()
    points = model.fit_transform(data)
    report["seconds"] = time.perf_counter() - started
    report["peak_mib"] = status_mib("VmHWM")
    return points, report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--method", required=True, choices=["tsne", "umap", "umap-parallel"])
    parser.add_argument("--data", required=True, help="float32 points x dimensions .npy")
    parser.add_argument("--out", required=True, help="where the points x 2 map goes (.npy)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--perplexity", type=float, default=30.0)
    parser.add_argument("--iterations", type=int, default=750, help="t-SNE's, in all")
    parser.add_argument("--neighbours", type=int, default=15)
    parser.add_argument("--min-dist", type=float, default=0.1)
    args = parser.parse_args()

    missing = missing_package(args.method)
    if missing:
        print(json.dumps({"name": peer_name(args.method), "skipped": missing}))
        return
    import numpy as np

    data = np.load(args.data)
    # Whatever the peers print goes to stderr: stdout carries the one JSON line.
    with contextlib.redirect_stdout(sys.stderr):
        points, report = fit(args, data)
    np.save(args.out, np.ascontiguousarray(points, dtype="<f4"))
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
