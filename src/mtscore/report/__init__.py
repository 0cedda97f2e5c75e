"""Results as text, TSV, JSON lines and LaTeX (``paired``: significance tables). May import
``significance``, ``metrics``, ``core`` and below; never ``cli``."""
