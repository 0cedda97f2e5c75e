"""Reading segments from files, gzip files and standard input, whole or block by block.
May import only the leaf modules (``errors``)."""
