"""Ultralytics YOLO11n trained from its yaml on a COCO set for a fixed time, scored by pycocotools.

    python ultralytics_peer.py --train-annotations T/annotations.json --train-images T/images \
        --val-annotations V/annotations.json --val-images V/images --task detect|segment \
        --imgsz 96 --seconds 600 --seed 0 --out WORK

The detection benchmark's peer. The COCO sets (as `kiln generate-scenes` writes them) become
Ultralytics' YOLO layout in WORK/yolo: images linked, labels/*.txt with normalized boxes, or
for segment the largest outer contour of each instance's mask (RLE, uncompressed RLE or
polygons), the outline Kiln's own YOLO segments use; classes are the COCO categories in the
file's order. yolo11n.yaml (yolo11n-seg.yaml) is trained from random initialization on the
CPU for --seconds of wall time (Ultralytics' time=, in hours), validation between epochs off
(val=False) so that the budget goes to training; Ultralytics still validates once after the
budget runs out, outside the measured time. --workers is kept (Ultralytics sets workers=0 on
the CPU). The last weights (and best.pt when its weights differ) then predict the val
images (conf=0.001, iou=0.7, max_det=100) the way Ultralytics reports COCO mAP, through its
validator with save_json (multi-label NMS, as Kiln's top-k over classes and cells);
--protocol predict takes its predictor instead (one class per box). The COCO results
(category ids mapped back, masks as RLE at the original size) are written to
WORK/results_last.json and scored with pycocotools' COCOeval.

Nothing is downloaded: Ultralytics runs offline (YOLO_OFFLINE, no auto-install, settings in
WORK/config with sync and every logger integration off, no font check), and any IPv4/IPv6
connection or name lookup is refused and recorded; the script fails if one was tried.

Library output goes to stderr; stdout carries one JSON object: the peer, the training's wall
seconds and images seen per second, the epochs done (fractional), box mAP, mAP@.5, mAP@.75
(and the same for masks with segment), and the model's parameter count.
"""
import argparse
import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path

# ---- No network: refuse and record every attempt, before anything else is imported. ----
network_attempts = []
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _refuse(what):
    network_attempts.append(what)
    print(f"ultralytics_peer: refused network access: {what}", file=sys.stderr)


def _guarded_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _refuse(f"connect {address!r}")
        raise OSError("network access is disabled in ultralytics_peer")
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _refuse(f"connect_ex {address!r}")
        return 111  # ECONNREFUSED
    return _connect_ex(self, address)


def _guarded_getaddrinfo(host, *args, **kwargs):
    _refuse(f"getaddrinfo {host!r}")
    raise socket.gaierror(socket.EAI_NONAME, "network access is disabled in ultralytics_peer")


socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex
socket.getaddrinfo = _guarded_getaddrinfo


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train-annotations", required=True, help="COCO JSON of the train split")
    parser.add_argument("--train-images", required=True, help="folder of the train images")
    parser.add_argument("--val-annotations", required=True, help="COCO JSON of the val split")
    parser.add_argument("--val-images", required=True, help="folder of the val images")
    parser.add_argument("--task", choices=("detect", "segment"), default="detect")
    parser.add_argument("--imgsz", type=int, required=True, help="training and predicting size")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seconds", type=float, required=True, help="wall-time budget of training")
    parser.add_argument("--epochs", type=int, default=1000, help="upper bound; --seconds governs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="train loader workers")
    parser.add_argument("--optimizer", default="auto", help="Ultralytics' optimizer= (auto)")
    parser.add_argument("--protocol", choices=("val", "predict"), default="val",
                        help="COCO results from Ultralytics' validator (its mAP protocol, "
                             "multi-label NMS) or from its predictor (one class per box)")
    parser.add_argument("--out", required=True, help="work folder")
    return parser.parse_args()


# ---- COCO to Ultralytics' YOLO layout. ----


def instance_mask(segmentation, height, width):
    """The instance's mask (uint8, height x width) from polygons, RLE or uncompressed RLE."""
    from pycocotools import mask as mask_utils

    if isinstance(segmentation, list):  # polygons
        rle = mask_utils.merge(mask_utils.frPyObjects(segmentation, height, width))
    elif isinstance(segmentation["counts"], list):  # uncompressed RLE
        rle = mask_utils.frPyObjects(segmentation, height, width)
    else:
        rle = dict(segmentation)
        if isinstance(rle["counts"], str):
            rle["counts"] = rle["counts"].encode("ascii")
    return mask_utils.decode(rle)


def largest_outline(mask):
    """The largest outer contour, normalized x y pairs at pixel centres, as Kiln's YOLO segments."""
    import cv2
    import numpy as np

    mask = np.ascontiguousarray(mask, dtype=np.uint8)  # pycocotools decodes in Fortran order
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    largest = max(contours, key=cv2.contourArea)
    height, width = mask.shape
    if len(largest) >= 3:
        points = [(float(x) + 0.5, float(y) + 0.5) for x, y in largest.reshape(-1, 2)]
    else:
        x, y, w, h = cv2.boundingRect(largest)
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return [(px / width, py / height) for px, py in points]


def convert_split(annotations, images, root, split, task, class_of):
    """Link the split's images into root/images/split and write root/labels/split/*.txt."""
    coco = json.loads(Path(annotations).read_text())
    image_dir = root / "images" / split
    label_dir = root / "labels" / split
    image_dir.mkdir(parents=True, exist_ok=True)
    label_dir.mkdir(parents=True, exist_ok=True)
    by_image = {}
    for annotation in coco["annotations"]:
        by_image.setdefault(annotation["image_id"], []).append(annotation)
    skipped = 0
    for image in coco["images"]:
        source = (Path(images) / image["file_name"]).resolve()
        if not source.is_file():
            raise SystemExit(f"ultralytics_peer: missing image {source}")
        stem = f"{image['id']:012d}"
        link = image_dir / (stem + source.suffix.lower())
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(source)
        width, height = image["width"], image["height"]
        lines = []
        for annotation in by_image.get(image["id"], []):
            if annotation.get("iscrowd", 0):
                skipped += 1
                continue
            cls = class_of[annotation["category_id"]]
            if task == "segment":
                outline = None
                if annotation.get("segmentation"):
                    outline = largest_outline(
                        instance_mask(annotation["segmentation"], height, width))
                if outline is None:
                    skipped += 1
                    continue
                lines.append(f"{cls}" + "".join(f" {x:.6f} {y:.6f}" for x, y in outline))
            else:
                x, y, w, h = annotation["bbox"]
                x0, y0 = max(0.0, x) / width, max(0.0, y) / height
                x1, y1 = min(width, x + w) / width, min(height, y + h) / height
                if x1 <= x0 or y1 <= y0:
                    skipped += 1
                    continue
                lines.append(f"{cls} {(x0 + x1) / 2:.6f} {(y0 + y1) / 2:.6f} "
                             f"{x1 - x0:.6f} {y1 - y0:.6f}")
        (label_dir / (stem + ".txt")).write_text("".join(line + "\n" for line in lines))
    if skipped:
        print(f"ultralytics_peer: {split}: {skipped} crowd or empty annotations left out",
              file=sys.stderr)
    return len(coco["images"])


def convert(arguments, root):
    """The YOLO layout; returns data.yaml, the COCO category id of each class, the train images."""
    categories = json.loads(Path(arguments.train_annotations).read_text())["categories"]
    category_ids = [category["id"] for category in categories]
    class_of = {category_id: index for index, category_id in enumerate(category_ids)}
    train_images = convert_split(arguments.train_annotations, arguments.train_images, root, "train",
                                 arguments.task, class_of)
    convert_split(arguments.val_annotations, arguments.val_images, root, "val", arguments.task,
                  class_of)
    names = "".join(f"  {index}: {json.dumps(category['name'])}\n"
                    for index, category in enumerate(categories))
    data = root / "data.yaml"
    data.write_text(f"path: {json.dumps(str(root))}\ntrain: images/train\nval: images/val\n"
                    f"names:\n{names}")
    return data, category_ids, train_images


# ---- Prediction and scoring. ----


def validate(weights, arguments, category_ids, data):
    """COCO results of the weights on the val images, by Ultralytics' validator (save_json).

    The way Ultralytics reports COCO mAP: multi-label NMS (a box may be kept for several
    classes), rectangular letterboxed batches, masks at the original size (process_mask_native).
    """
    from ultralytics import YOLO

    name = f"val_{Path(weights).stem}"
    YOLO(str(weights), task=arguments.task).val(
        data=str(data), split="val", imgsz=arguments.imgsz, batch=arguments.batch, conf=0.001,
        iou=0.7, max_det=100, save_json=True, plots=False, device="cpu", project=arguments.out,
        name=name, exist_ok=True, verbose=False)
    found = json.loads((Path(arguments.out) / name / "predictions.json").read_text())
    results = []
    for detection in found:  # image_id is the image's stem, the COCO id (convert_split)
        detection.pop("file_name", None)
        detection["category_id"] = category_ids[detection["category_id"] - 1]  # class + 1
        results.append(detection)
    (Path(arguments.out) / f"results_{Path(weights).stem}.json").write_text(json.dumps(results))
    return results


def predict(weights, arguments, category_ids, data=None):
    """COCO results of the weights on the val images, by Ultralytics' predictor.

    For --protocol predict: one class per box (the predictor's NMS), each image letterboxed
    on its own.
    """
    from pycocotools import mask as mask_utils
    from ultralytics import YOLO
    import numpy as np

    coco = json.loads(Path(arguments.val_annotations).read_text())
    model = YOLO(str(weights), task=arguments.task)
    results = []
    sources = [str((Path(arguments.val_images) / image["file_name"]).resolve())
               for image in coco["images"]]
    predictions = model.predict(source=sources, conf=0.001, iou=0.7, max_det=100,
                                imgsz=arguments.imgsz, device="cpu", retina_masks=True,
                                verbose=False, stream=True)
    for source, image, result in zip(sources, coco["images"], predictions, strict=True):
        assert Path(result.path).resolve() == Path(source), (result.path, source)
        boxes = result.boxes
        xyxy = boxes.xyxy.cpu().numpy().astype(float)
        scores = boxes.conf.cpu().numpy().astype(float)
        classes = boxes.cls.cpu().numpy().astype(int)
        masks = None
        if arguments.task == "segment" and result.masks is not None:
            masks = result.masks.data.cpu().numpy() > 0.5  # original image size (retina)
            assert masks.shape[1:] == (image["height"], image["width"]), masks.shape
        for i in range(len(scores)):
            x0, y0, x1, y1 = (float(v) for v in xyxy[i])
            detection = {"image_id": image["id"], "category_id": category_ids[classes[i]],
                         "bbox": [round(v, 3) for v in (x0, y0, x1 - x0, y1 - y0)],
                         "score": round(float(scores[i]), 5)}
            if arguments.task == "segment":
                if masks is not None:
                    mask = np.asfortranarray(masks[i].astype(np.uint8))
                else:
                    mask = np.zeros((image["height"], image["width"]), np.uint8, order="F")
                rle = mask_utils.encode(mask)
                rle["counts"] = rle["counts"].decode("ascii")
                detection["segmentation"] = rle
            results.append(detection)
    (Path(arguments.out) / f"results_{Path(weights).stem}.json").write_text(json.dumps(results))
    return results


def score(arguments, results):
    """{'box': (mAP, mAP@.5, mAP@.75), 'mask': ...} of the results, by COCOeval."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    kinds = {"box": "bbox", "mask": "segm"} if arguments.task == "segment" else {"box": "bbox"}
    if not results:
        return {kind: (0.0, 0.0, 0.0) for kind in kinds}
    scores = {}
    with contextlib.redirect_stdout(sys.stderr):
        truth = COCO(arguments.val_annotations)
        found = truth.loadRes(results)
        for kind, iou_type in kinds.items():
            evaluation = COCOeval(truth, found, iou_type)
            evaluation.evaluate()
            evaluation.accumulate()
            print(f"ultralytics_peer: {kind}:")
            evaluation.summarize()
            scores[kind] = tuple(float(value) for value in evaluation.stats[:3])
    return scores


def main():
    arguments = parse_arguments()
    stdout = sys.stdout
    sys.stdout = sys.stderr  # Ultralytics' logger and progress bars; stdout keeps the JSON only
    out = Path(arguments.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(out / "config")
    os.environ.pop("ULTRALYTICS_API_KEY", None)
    import ultralytics
    import ultralytics.data.utils
    from ultralytics import YOLO
    from ultralytics.utils import SETTINGS

    SETTINGS.update({"sync": False, "api_key": "", "datasets_dir": str(out),
                     "weights_dir": str(out / "weights"), "runs_dir": str(out),
                     **{key: False for key in ("clearml", "comet", "dvc", "mlflow", "raytune",
                                               "tensorboard", "wandb")}})
    # check_det_dataset fetches Arial.ttf for plots whatever plots= says; no plots are drawn.
    ultralytics.data.utils.check_font = lambda *args, **kwargs: None

    data, category_ids, train_images = convert(arguments, out / "yolo")

    model_name = "yolo11n-seg" if arguments.task == "segment" else "yolo11n"
    model = YOLO(f"{model_name}.yaml", task=arguments.task)
    clock = {"images": 0, "epochs": 0}

    def keep_workers(trainer):
        trainer.args.workers = arguments.workers  # Ultralytics sets 0 on the CPU

    def on_train_start(trainer):
        preprocess = trainer.preprocess_batch

        def counted(batch):
            clock["images"] += int(batch["img"].shape[0])
            return preprocess(batch)

        trainer.preprocess_batch = counted
        group = trainer.optimizer.param_groups[0]
        lr = group.get("initial_lr", group["lr"])
        clock["optimizer"] = f"{type(trainer.optimizer).__name__} lr={lr:g}"  # optimizer=auto picks
        clock["start"] = time.perf_counter()

    def on_train_epoch_end(trainer):
        clock["end"] = time.perf_counter()  # after the last batch, before any validation
        clock["epochs"] += 1

    def on_fit_epoch_end(trainer):
        if trainer.epoch + 1 >= arguments.epochs:
            trainer.stop = True

    model.add_callback("on_pretrain_routine_start", keep_workers)
    model.add_callback("on_train_start", on_train_start)
    model.add_callback("on_train_epoch_end", on_train_epoch_end)
    model.add_callback("on_fit_epoch_end", on_fit_epoch_end)
    started = time.perf_counter()
    model.train(data=str(data), task=arguments.task, imgsz=arguments.imgsz, batch=arguments.batch,
                epochs=arguments.epochs, time=arguments.seconds / 3600, seed=arguments.seed,
                deterministic=True, device="cpu", workers=arguments.workers, pretrained=False,
                plots=False, amp=False, val=False, optimizer=arguments.optimizer,
                project=str(out), name="run", exist_ok=True, verbose=False)
    run_seconds = time.perf_counter() - started
    train_seconds = clock["end"] - clock["start"]

    results_of = validate if arguments.protocol == "val" else predict
    weights = out / "run" / "weights"
    scores = score(arguments, results_of(weights / "last.pt", arguments, category_ids, data))
    best_scores = scores
    best = weights / "best.pt"
    if best.is_file():  # with val=False Ultralytics writes best.pt with last.pt every epoch
        import torch

        def weights_of(path):
            return torch.load(path, map_location="cpu", weights_only=False)["model"].state_dict()

        last_weights, best_weights = weights_of(weights / "last.pt"), weights_of(best)
        if last_weights.keys() != best_weights.keys() or any(
                not torch.equal(last_weights[key], best_weights[key]) for key in last_weights):
            best_scores = score(arguments,
                                results_of(best, arguments, category_ids, data))
    params = sum(parameter.numel()
                 for parameter in YOLO(str(weights / "last.pt")).model.parameters())

    report = {
        "peer": f"ultralytics {ultralytics.__version__}",
        "model": model_name,
        "task": arguments.task,
        "seed": arguments.seed,
        "imgsz": arguments.imgsz,
        "batch": arguments.batch,
        "workers": arguments.workers,
        "optimizer": clock["optimizer"],
        "protocol": arguments.protocol,
        "train_images": train_images,
        "train_seconds": round(train_seconds, 3),
        "run_seconds": round(run_seconds, 3),
        "epochs": round(clock["images"] / train_images, 3),
        "epochs_started": clock["epochs"],
        "images_seen": clock["images"],
        "images_per_second": round(clock["images"] / train_seconds, 3) if train_seconds else 0.0,
        "box_map": scores["box"][0],
        "box_map50": scores["box"][1],
        "box_map75": scores["box"][2],
    }
    if arguments.task == "segment":
        report.update(mask_map=scores["mask"][0], mask_map50=scores["mask"][1],
                      mask_map75=scores["mask"][2])
    report["best_box_map"] = best_scores["box"][0]
    if arguments.task == "segment":
        report["best_mask_map"] = best_scores["mask"][0]
    report["params"] = params
    report["network_attempts"] = len(network_attempts)
    print(json.dumps(report), file=stdout, flush=True)
    if network_attempts:
        raise SystemExit(f"ultralytics_peer: {len(network_attempts)} network attempts refused")


if __name__ == "__main__":
    main()
