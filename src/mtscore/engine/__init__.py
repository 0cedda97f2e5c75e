"""The array engine: token keys and ids (``keys``, ``ids``), n-gram counting and clipping
(``ngrams``) and the NumPy/torch operations they run on (``backend``). No metric-specific code.
May import ``tokenizers``, ``files`` and the leaf modules; never ``core`` or anything above.
"""
