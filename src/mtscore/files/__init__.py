"""Reading segments from files (plain, gzip, bzip2 or xz) and standard input, whole or block by block.
May import only the leaf modules (``errors``)."""
