"""Checks an ONNX model that `kiln export` wrote, with ONNX's checker and ONNX Runtime.

    onnx_compare.py MODEL CASE_DIR

CASE_DIR holds Kiln's own input and outputs for some real images: input.bin (float32) and
case.json, {"input": shape, "outputs": {name: {"file", "dtype", "shape", "first"}}} where
"first" (optional) compares only the first N entries along dimension 1 (detections, best
first). Prints one JSON object: the outputs' names, the metadata, and per output the largest
difference relative to the largest magnitude of Kiln's values (int64 outputs: the fraction of
entries that differ); with a dynamic batch also the largest difference between running the
images one by one and all at once.
"""

import json
import sys

import numpy as np
import onnx
import onnxruntime as ort


def relative(got, expected):
    if expected.dtype == np.int64:
        return float(np.mean(got != expected)) if expected.size else 0.0
    got = got.astype(np.float64)
    expected = expected.astype(np.float64)
    scale = max(float(np.abs(expected).max()), 1e-3) if expected.size else 1.0
    return float(np.abs(got - expected).max() / scale) if expected.size else 0.0


def main():
    model_path, case_dir = sys.argv[1], sys.argv[2]
    model = onnx.load(model_path)
    onnx.checker.check_model(model, full_check=True)
    with open(f"{case_dir}/case.json") as file:
        case = json.load(file)
    session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    images = session.get_inputs()[0]
    dtype = np.float16 if images.type == "tensor(float16)" else np.float32
    x = np.fromfile(f"{case_dir}/input.bin", dtype=np.float32).reshape(case["input"]).astype(dtype)
    names = [output.name for output in session.get_outputs()]
    got = dict(zip(names, session.run(None, {images.name: x})))
    result = {
        "outputs": names,
        "input_type": images.type,
        "input_shape": [str(d) for d in images.shape],
        "metadata": {entry.key: entry.value for entry in model.metadata_props},
        "relative": {},
    }
    for name, spec in case["outputs"].items():
        expected = np.fromfile(f"{case_dir}/{spec['file']}", dtype=spec["dtype"])
        expected = expected.reshape(spec["shape"])
        output = got[name]
        if "first" in spec:
            output = output[:, : spec["first"]]
            expected = expected[:, : spec["first"]]
        result["relative"][name] = relative(output, expected)
    if isinstance(images.shape[0], str):
        singles = [session.run(None, {images.name: x[i : i + 1]}) for i in range(x.shape[0])]
        result["batch_consistency"] = max(
            relative(np.concatenate([single[k] for single in singles]), got[name])
            for k, name in enumerate(names)
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
