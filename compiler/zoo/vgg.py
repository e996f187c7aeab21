"""VGG-19 (Simonyan and Zisserman, 2015) at 224×224: about 19.6 G MACs; `vgg19_conv` is its
16 convolutions and 5 pools without the fully connected layers, as SET models it (19.5 G)."""

from stc.compiler.zoo.builder import Activation, NetworkBuilder

STAGES = ((64, 2), (128, 2), (256, 4), (512, 4), (512, 4))
"""(channels, 3×3 convs) per stage; each stage ends with a 2×2 max pool."""


def features(b: NetworkBuilder) -> Activation:
    x = b.input("image", channels=3, height=224, width=224)
    for channels, convs in STAGES:
        for _ in range(convs):
            x = b.conv(x, channels, 3, pad=1, relu=True)
        x = b.maxpool(x, 2, stride=2)
    return x


def vgg19_conv(b: NetworkBuilder) -> None:
    b.output("features", features(b))


def vgg19(b: NetworkBuilder) -> None:
    x = features(b)
    x = b.fc(x, 4096, relu=True)
    x = b.fc(x, 4096, relu=True)
    b.output("logits", b.fc(x, 1000))
