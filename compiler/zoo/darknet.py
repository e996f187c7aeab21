"""
DarkNet-19 (Redmon and Farhadi, YOLO9000, 2017) at 224×224: about 2.8 G MACs. Its leaky
ReLU is a table lookup, as TianjicX would run it (CLUT).
"""

from stc.compiler.zoo.builder import NetworkBuilder

STAGES = (
    ((32, 3),),
    ((64, 3),),
    ((128, 3), (64, 1), (128, 3)),
    ((256, 3), (128, 1), (256, 3)),
    ((512, 3), (256, 1), (512, 3), (256, 1), (512, 3)),
    ((1024, 3), (512, 1), (1024, 3), (512, 1), (1024, 3)),
)
"""(channels, kernel) of the convs of each stage; all stages but the last end with a 2×2 max pool."""


def darknet19(b: NetworkBuilder) -> None:
    x = b.input("image", channels=3, height=224, width=224)
    for index, stage in enumerate(STAGES):
        for channels, kernel in stage:
            x = b.leaky_relu(b.conv(x, channels, kernel, pad=kernel // 2))
        if index < len(STAGES) - 1:
            x = b.maxpool(x, 2, stride=2)
    x = b.conv(x, 1000, 1)
    b.output("logits", b.global_avgpool(x))
