"""Loads Kiln's exported backbones into the models PyTorch users have, and checks they compute
what Kiln computed. For tst_train.

    python torchvision_backbones.py NAME WEIGHTS.pt IO.pt [NAME WEIGHTS.pt IO.pt ...]

WEIGHTS.pt is the exported state_dict; IO.pt holds {"input": images, "features": Kiln's
features of them}. ResNets load into torchvision's ResNet as they are (only fc is missing);
ViTs into torchvision's VisionTransformer after renaming timm's names to torchvision's; the
small CNN, which torchvision has no family for, into the torch.nn.Sequential a user would write.
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


def small_cnn(state):
    layers, channels = [], 3
    for width in (32, 64, 128, 256):
        layers += [torch.nn.Conv2d(channels, width, 3, 2, 1, bias=False),
                   torch.nn.BatchNorm2d(width), torch.nn.ReLU(inplace=True)]
        channels = width
    model = torch.nn.Sequential()
    model.features = torch.nn.Sequential(*layers)
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
        elif name == "smallcnn":
            model = small_cnn(state)
        else:
            raise SystemExit(f"no PyTorch counterpart known for {name}")
        expected = torch.load(io)
        with torch.no_grad():
            features = model.eval()(expected["input"])
        assert features.shape == expected["features"].shape, (name, features.shape)
        print(name, float((features - expected["features"]).abs().max()))


if __name__ == "__main__":
    main()
