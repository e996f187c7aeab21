"""LeNet-5 (LeCun et al., 1998) on 32×32 grey images: about 0.42 M MACs."""

from stc.compiler.zoo.builder import NetworkBuilder


def lenet(b: NetworkBuilder) -> None:
    x = b.input("image", channels=1, height=32, width=32)
    x = b.maxpool(b.conv(x, 6, 5, relu=True), 2, stride=2)
    x = b.maxpool(b.conv(x, 16, 5, relu=True), 2, stride=2)
    x = b.fc(x, 120, relu=True)
    x = b.fc(x, 84, relu=True)
    b.output("logits", b.fc(x, 10))
