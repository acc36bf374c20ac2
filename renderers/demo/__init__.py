"""The picture gallery, ``python -m renderers.demo OUT_DIR`` (``__main__``), and the seeded positions it draws
(``positions``: real games played by the core's random players, also the tests' and benchmarks' positions). Like
every module of ``renderers`` it imports only the standard library, ``core`` and Pillow."""
