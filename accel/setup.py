"""The extension module: plain C against the CPython API, no Cython (setup.py because
setuptools reads ``ext_modules`` from here)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("allfours_accel._search", ["allfours_accel/_search.c"],
                             extra_compile_args=["-O2"])])
