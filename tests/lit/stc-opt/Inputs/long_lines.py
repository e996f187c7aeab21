"""Writes parse errors in 20,000-character lines: near the start, in the middle, at the end."""

ones = ", ".join(["1"] * 6666)
cases = [
    '"test.op"() {v = [@, ' + ones + "]} : () -> ()",
    '"test.op"() {v = [' + ones + ", @, " + ones + "]} : () -> ()",
    '"test.op"() {v = [' + ones + ", @]} : () -> ()",
]
print("\n// -----\n".join(cases))
