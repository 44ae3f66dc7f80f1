"""The extension module: plain C against the CPython API, no Cython (setup.py because
setuptools reads ``ext_modules`` from here).  One module from six files cut along the
engine's seams (see allfours_accel/_engine.h)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("allfours_accel._search",
                             ["allfours_accel/_search.c", "allfours_accel/_module.c",
                              "allfours_accel/_referee.c",
                              "allfours_accel/_table.c", "allfours_accel/_bounds.c",
                              "allfours_accel/_partition.c"],
                             depends=["allfours_accel/_engine.h"],
                             extra_compile_args=["-O2"])])
