"""The picture gallery, ``python -m renderers.demo OUT_DIR`` (``__main__``): a tool of the checkout, not of the
product. It draws seeded positions from ``testkit.positions``, so the wheel leaves this package out
(``pyproject.toml``); every other module of ``renderers`` is shipped and imports nothing outside it."""
