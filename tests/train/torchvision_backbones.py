"""Loads Kiln's exported backbones into the models PyTorch users have, and checks they compute
what Kiln computed. For tst_train.

    python torchvision_backbones.py NAME WEIGHTS.pt IO.pt [NAME WEIGHTS.pt IO.pt ...]

WEIGHTS.pt is the exported state_dict; IO.pt holds {"input": images, "features": Kiln's
features of them}. ResNets load into torchvision's ResNet as they are (only fc is missing);
ViTs into torchvision's VisionTransformer after renaming timm's names to torchvision's; the
small CNN and the CSP networks, which torchvision has no family for, into the torch.nn modules
a user would write.
Prints one line per model: its name and the largest difference from Kiln's features.
"""
import sys

import torch
import torchvision

VITS = {"vit_tiny": (192, 3), "vit_small": (384, 6)}


def resnet(name, state):
    model = getattr(torchvision.models, name)()
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert sorted(missing) == ["fc.bias", "fc.weight"], missing
    assert not unexpected, unexpected
    model.fc = torch.nn.Identity()
    return model


def vit_names(name):
    """timm's name of a ViT tensor -> torchvision's."""
    fixed = {"cls_token": "class_token", "pos_embed": "encoder.pos_embedding",
             "patch_embed.proj.weight": "conv_proj.weight",
             "patch_embed.proj.bias": "conv_proj.bias",
             "norm.weight": "encoder.ln.weight", "norm.bias": "encoder.ln.bias"}
    if name in fixed:
        return fixed[name]
    block, index, rest = name.split(".", 2)
    assert block == "blocks", name
    rest = {"norm1.weight": "ln_1.weight", "norm1.bias": "ln_1.bias",
            "norm2.weight": "ln_2.weight", "norm2.bias": "ln_2.bias",
            "attn.qkv.weight": "self_attention.in_proj_weight",
            "attn.qkv.bias": "self_attention.in_proj_bias",
            "attn.proj.weight": "self_attention.out_proj.weight",
            "attn.proj.bias": "self_attention.out_proj.bias",
            "mlp.fc1.weight": "mlp.0.weight", "mlp.fc1.bias": "mlp.0.bias",
            "mlp.fc2.weight": "mlp.3.weight", "mlp.fc2.bias": "mlp.3.bias"}[rest]
    return f"encoder.layers.encoder_layer_{index}.{rest}"


def vit(name, state):
    dim, heads = VITS[name]
    model = torchvision.models.VisionTransformer(image_size=224, patch_size=16, num_layers=12,
                                                 num_heads=heads, hidden_dim=dim,
                                                 mlp_dim=4 * dim)
    missing, unexpected = model.load_state_dict({vit_names(k): v for k, v in state.items()},
                                                strict=False)
    assert sorted(missing) == ["heads.head.bias", "heads.head.weight"], missing
    assert not unexpected, unexpected
    model.heads = torch.nn.Identity()
    return model


def small_cnn(state, signed_features):
    """smallcnn; smallcnn_v2 (signed_features) keeps its last block, without ReLU, apart."""
    def block(channels, width, relu=True):
        return [torch.nn.Conv2d(channels, width, 3, 2, 1, bias=False),
                torch.nn.BatchNorm2d(width)] + ([torch.nn.ReLU(inplace=True)] if relu else [])
    layers = block(3, 32) + block(32, 64) + block(64, 128)
    model = torch.nn.Sequential()
    if signed_features:
        model.features = torch.nn.Sequential(*layers)
        model.last_block = torch.nn.Sequential(*block(128, 256, relu=False))
    else:
        model.features = torch.nn.Sequential(*layers, *block(128, 256))
    model.pool = torch.nn.AdaptiveAvgPool2d(1)
    model.flatten = torch.nn.Flatten()
    model.load_state_dict(state, strict=True)
    return model


CSPNETS = {"cspnet_n": ((16, 32, 64, 128, 256), (1, 2, 2, 1)),
           "cspnet_s": ((32, 64, 128, 256, 512), (1, 2, 2, 1))}


class Unit(torch.nn.Module):
    """Convolution, batch norm, SiLU."""

    def __init__(self, cin, cout, kernel=1, stride=1):
        super().__init__()
        self.conv = torch.nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False)
        self.bn = torch.nn.BatchNorm2d(cout, eps=1e-3, momentum=0.03)

    def forward(self, x):
        return torch.nn.functional.silu(self.bn(self.conv(x)))


class CspBlock(torch.nn.Module):
    def __init__(self, cin, cout, depth):
        super().__init__()
        self.half = cout // 2
        self.enter = Unit(cin, 2 * self.half)
        self.pairs = torch.nn.ModuleList(
            torch.nn.ModuleList([Unit(self.half, self.half, 3), Unit(self.half, self.half, 3)])
            for _ in range(depth))
        self.leave = Unit((2 + depth) * self.half, cout)

    def forward(self, x):
        parts = list(self.enter(x).chunk(2, 1))
        for first, second in self.pairs:
            parts.append(parts[-1] + second(first(parts[-1])))
        return self.leave(torch.cat(parts, 1))


class PyramidPooling(torch.nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.enter = Unit(cin, cin // 2)
        self.leave = Unit(cin // 2 * 4, cout)

    def forward(self, x):
        pooled = [self.enter(x)]
        for _ in range(3):
            pooled.append(torch.nn.functional.max_pool2d(pooled[-1], 5, 1, 2))
        return self.leave(torch.cat(pooled, 1))


def cspnet(name, state):
    widths, depths = CSPNETS[name]
    model = torch.nn.Sequential()
    model.stem = Unit(3, widths[0], 3, 2)
    for stage, depth in enumerate(depths):
        layers = [Unit(widths[stage], widths[stage + 1], 3, 2),
                  CspBlock(widths[stage + 1], widths[stage + 1], depth)]
        if stage + 1 == len(depths):
            layers.append(PyramidPooling(widths[-1], widths[-1]))
        setattr(model, f"stage{stage + 1}", torch.nn.Sequential(*layers))
    model.pool = torch.nn.AdaptiveAvgPool2d(1)
    model.flatten = torch.nn.Flatten()
    model.load_state_dict(state, strict=True)
    return model


def main():
    arguments = sys.argv[1:]
    for i in range(0, len(arguments), 3):
        name, weights, io = arguments[i:i + 3]
        state = torch.load(weights)
        if name.startswith("resnet"):
            model = resnet(name, state)
        elif name in VITS:
            model = vit(name, state)
        elif name in ("smallcnn", "smallcnn_v2"):
            model = small_cnn(state, name == "smallcnn_v2")
        elif name in CSPNETS:
            model = cspnet(name, state)
        else:
            raise SystemExit(f"no PyTorch counterpart known for {name}")
        expected = torch.load(io)
        with torch.no_grad():
            features = model.eval()(expected["input"])
        assert features.shape == expected["features"].shape, (name, features.shape)
        print(name, float((features - expected["features"]).abs().max()))


if __name__ == "__main__":
    main()
