"""``mtscore report``: one self-contained HTML page that compares systems. ``analysis`` computes
what the page shows (scores with intervals and paired tests, buckets, characteristic n-grams,
the segments where systems differ most), from the metrics' per-segment statistics; ``buckets`` and
``ngrams`` are its two kinds of breakdown; ``page`` draws it as HTML with inline SVG charts
(``svg``) and ``tables`` writes the score tables as Markdown or LaTeX.
May import ``significance``, ``metrics``, ``core`` and below; never ``cli``.
"""
