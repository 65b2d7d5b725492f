"""Only the compiled exact-cover search lives here; everything else is in pyproject.toml.

optional=True: without a C compiler the install still succeeds and zoospec uses the pure-Python
twin (solvers/packing/xcover.py), just more slowly.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("zoospec.solvers.packing._xcover", ["solvers/packing/_xcover.c"], optional=True,
                             extra_compile_args=["-O2"])])
