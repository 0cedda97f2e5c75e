"""What every metric shares: the ``Metric`` base, input checks, additive statistics, the score
base, signatures and streaming. May import ``engine``, ``tokenizers``, ``files`` and the leaf
modules (``errors``, ``progress``, ``threads``, ``version``); never ``metrics`` or anything above.
"""
