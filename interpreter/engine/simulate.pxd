# Cython declarations for simulate.py, read only when setup.py compiles the engine: a
# random bot's pick in play_game calls the generator's helper as a C function.

from kittens.interpreter.lang.machine cimport below
