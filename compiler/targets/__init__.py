"""
Hardware targets, the bottom layer of stc: the machine model (`hardware`, made of the parts in
`components` and read by `reading` from the TOML presets beside it or any TOML file with the
same keys) and the unit costs every cycle, byte and picojoule is priced with (`cost_units`).
"""
