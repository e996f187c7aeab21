"""
ResNet-18 and ResNet-50 (He et al., 2016; torchvision's v1.5, stride in the 3×3 of a
bottleneck) at 224×224: about 1.8 G and 4.1 G MACs; and ResNet-50 v1 (the paper's and SET's:
stride in the first 1×1 of a downsampling bottleneck), 3.86 G MACs.
"""

from stc.compiler.zoo.builder import Activation, NetworkBuilder


def basic_block(b: NetworkBuilder, x: Activation, planes: int, stride: int) -> Activation:
    y = b.conv(x, planes, 3, stride=stride, pad=1, relu=True)
    y = b.conv(y, planes, 3, pad=1)
    shortcut = x if stride == 1 and x.channels == planes else b.conv(x, planes, 1, stride=stride)
    return b.add_branches([y, shortcut], relu=True)


def bottleneck(b: NetworkBuilder, x: Activation, planes: int, stride: int) -> Activation:
    y = b.conv(x, planes, 1, relu=True)
    y = b.conv(y, planes, 3, stride=stride, pad=1, relu=True)
    return bottleneck_end(b, x, y, planes, stride)


def bottleneck_v1(b: NetworkBuilder, x: Activation, planes: int, stride: int) -> Activation:
    y = b.conv(x, planes, 1, stride=stride, relu=True)
    y = b.conv(y, planes, 3, pad=1, relu=True)
    return bottleneck_end(b, x, y, planes, stride)


def bottleneck_end(b: NetworkBuilder, x: Activation, y: Activation, planes: int, stride: int) -> Activation:
    y = b.conv(y, planes * 4, 1)
    shortcut = x if stride == 1 and x.channels == planes * 4 else b.conv(x, planes * 4, 1, stride=stride)
    return b.add_branches([y, shortcut], relu=True)


def resnet(b: NetworkBuilder, block, depths: tuple[int, ...]) -> None:
    x = b.input("image", channels=3, height=224, width=224)
    x = b.conv(x, 64, 7, stride=2, pad=3, relu=True)
    x = b.maxpool(x, 3, stride=2, pad=1)
    for stage, depth in enumerate(depths):
        planes = 64 * 2**stage
        for index in range(depth):
            x = block(b, x, planes, 2 if stage > 0 and index == 0 else 1)
    x = b.global_avgpool(x)
    b.output("logits", b.fc(x, 1000))


def resnet18(b: NetworkBuilder) -> None:
    resnet(b, basic_block, (2, 2, 2, 2))


def resnet50(b: NetworkBuilder) -> None:
    resnet(b, bottleneck, (3, 4, 6, 3))


def resnet50_v1(b: NetworkBuilder) -> None:
    resnet(b, bottleneck_v1, (3, 4, 6, 3))
