"""
Front ends: networks made outside stc as task graphs. `onnx_import.import_onnx` reads a
float or power-of-two QDQ ONNX model into an int8 graph (`stc-import`); the zoo
(`stc.compiler.zoo`) is the in-house front end whose `NetworkBuilder` both use.
"""
