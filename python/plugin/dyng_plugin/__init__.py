"""The CUDA plugin of dyng (distribution ``dyng-cu<N>``, import package ``dyng_cu<N>``).

Placeholder of the build: one source directory serves both plugins; ci/plugin_pyproject.py copies
it to ``python/plugin/dyng_cu<N>`` in a disposable tree, so the package learns which plugin it is
from its own name. The probe and the lazy ``native`` module replace this file.
"""

CUDA_MAJOR = int(__name__.rsplit('cu', 1)[1]) if 'cu' in __name__ else 0
