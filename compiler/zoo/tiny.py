"""A tiny network that uses every compute block: for quick end-to-end runs and tests."""

from stc.compiler.zoo.builder import NetworkBuilder


def tiny(b: NetworkBuilder) -> None:
    x = b.input("image", channels=3, height=16, width=16)
    stem = b.conv(x, 16, 3, pad=1, relu=True)
    left = b.conv(stem, 8, 3, pad=1, relu=True)
    right = b.leaky_relu(b.conv(stem, 8, 1))
    joined = b.concat([left, right])
    pooled = b.maxpool(joined, 2, stride=2)
    gated = b.multiply(pooled, b.conv(pooled, 16, 1))
    residual = b.add_branches([pooled, gated], relu=True)
    smooth = b.avgpool(residual, 2, stride=2)
    b.output("logits", b.fc(smooth, 10))
