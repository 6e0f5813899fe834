"""Times pycocotools and faster-coco-eval on one set of detections, for bench_coco and
bench_detection.

    python coco_peers.py GROUND_TRUTH.json RESULTS.json bbox|segm

Prints one JSON line per evaluator that is installed: its name, the seconds for load +
evaluate + accumulate + summarize, and its twelve stats.
"""
import contextlib
import io
import json
import sys
import time


def run(name, coco_class, eval_class, truth, results, iou_type):
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        ground = coco_class(truth)
        found = ground.loadRes(results)
        evaluation = eval_class(ground, found, iou_type)
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    seconds = time.perf_counter() - started
    print(json.dumps({"name": name, "seconds": seconds,
                      "stats": [float(value) for value in evaluation.stats[:12]]}))


def main():
    truth, results, iou_type = sys.argv[1:4]
    try:
        from pycocotools.coco import COCO
        from pycocotools.cocoeval import COCOeval
        run("pycocotools", COCO, COCOeval, truth, results, iou_type)
    except ImportError:
        pass
    try:
        from faster_coco_eval import COCO as FasterCOCO
        from faster_coco_eval import COCOeval_faster
        run("faster-coco-eval", FasterCOCO, COCOeval_faster, truth, results, iou_type)
    except ImportError:
        pass


if __name__ == "__main__":
    main()
