"""Local memory: the bytes a block occupies on a core (`storage_size`) and the addresses
regions with lifetimes get in it (`allocation`)."""
