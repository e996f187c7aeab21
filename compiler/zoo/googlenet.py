"""
GoogLeNet / Inception v1 (Szegedy et al., 2015) at 224×224, without the auxiliary
classifiers: about 1.5 G MACs. Max pools round up (ceil mode) through one row and column
of bottom/right padding, which a max never picks.
"""

from stc.compiler.zoo.builder import Activation, NetworkBuilder

CEIL = (0, 1, 0, 1)
INCEPTIONS = {
    "3a": (64, 96, 128, 16, 32, 32),
    "3b": (128, 128, 192, 32, 96, 64),
    "4a": (192, 96, 208, 16, 48, 64),
    "4b": (160, 112, 224, 24, 64, 64),
    "4c": (128, 128, 256, 24, 64, 64),
    "4d": (112, 144, 288, 32, 64, 64),
    "4e": (256, 160, 320, 32, 128, 128),
    "5a": (256, 160, 320, 32, 128, 128),
    "5b": (384, 192, 384, 48, 128, 128),
}
"""Per module: 1×1, 3×3 reduce, 3×3, 5×5 reduce, 5×5, pool projection."""


def inception(b: NetworkBuilder, x: Activation, widths: tuple[int, ...]) -> Activation:
    one, reduce3, three, reduce5, five, project = widths
    return b.concat(
        [
            b.conv(x, one, 1, relu=True),
            b.conv(b.conv(x, reduce3, 1, relu=True), three, 3, pad=1, relu=True),
            b.conv(b.conv(x, reduce5, 1, relu=True), five, 5, pad=2, relu=True),
            b.conv(b.maxpool(x, 3, stride=1, pad=1), project, 1, relu=True),
        ]
    )


def googlenet(b: NetworkBuilder) -> None:
    x = b.input("image", channels=3, height=224, width=224)
    x = b.conv(x, 64, 7, stride=2, pad=3, relu=True)
    x = b.maxpool(x, 3, stride=2, pad=CEIL)
    x = b.conv(x, 64, 1, relu=True)
    x = b.conv(x, 192, 3, pad=1, relu=True)
    x = b.maxpool(x, 3, stride=2, pad=CEIL)
    for name, widths in INCEPTIONS.items():
        x = inception(b, x, widths)
        if name in ("3b", "4e"):
            x = b.maxpool(x, 3, stride=2, pad=CEIL)
    x = b.global_avgpool(x)
    b.output("logits", b.fc(x, 1000))
