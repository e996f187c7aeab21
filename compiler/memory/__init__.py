"""Local memory: the bytes a block occupies on a core (`storage_size`)."""
