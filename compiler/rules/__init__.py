"""
The rules of stc's `task` and `st` dialects on plain values (shapes, widths, integers,
boxes), without xDSL: the dialects' verifiers state each rule by calling these, and the
plain-data reader of `stc-run` (`stc.runtime.plain`) checks the same rules on the data it
reads, so each rule and its message is written once.
"""
