"""Frozen copies of the Thousand normal policy modules of ``core/ai/thousand`` (see ``bench.baseline``)."""
