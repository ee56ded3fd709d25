"""Loads librobotstxt (the C ABI of bindings/capi) through cffi."""

import os
import sys

from cffi import FFI

CDEF = """
int64_t rtx_parse(const char *body, size_t len, char **err);
int64_t rtx_for_status(int status, const char *content_type, size_t ct_len,
                       const char *body, size_t len, int dialect,
                       int *policy, char **err);
int64_t rtx_ask(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);
int rtx_allowed(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);
char *rtx_decide(int64_t h, const char *agent, size_t agent_len, int kind,
                 const char *url, size_t url_len, int dialect, char **err);
char *rtx_crawl_delay(int64_t h, const char *agent, size_t agent_len,
                      int kind, int dialect, char **err);
char *rtx_sitemaps(int64_t h, char **err);
char *rtx_info(int64_t h, char **err);
char *rtx_usage(int64_t h, const char *agent, size_t agent_len, int kind,
                const char *url, size_t url_len, int dialect, char **err);
int rtx_dialect(const char *name, size_t len, char **err);
void rtx_free(int64_t h);
void rtx_free_string(char *s);
int64_t rtx_alive(void);
"""


def _library_name():
    if sys.platform == "darwin":
        return "librobotstxt.dylib"
    if sys.platform == "win32":
        return "robotstxt.dll"
    return "librobotstxt.so"


def library_path():
    """The shared library loaded: $ROBOTSTXT_LIBRARY, else the copy
    shipped inside the package (robotstxt/_lib/)."""
    env = os.environ.get("ROBOTSTXT_LIBRARY")
    if env:
        return env
    return os.path.join(os.path.dirname(__file__), "_lib", _library_name())


ffi = FFI()
ffi.cdef(CDEF)
try:
    lib = ffi.dlopen(library_path())
except OSError as e:  # pragma: no cover - a broken install
    raise ImportError(
        "robotstxt: cannot load %s (%s); build it with `make python` "
        "or set ROBOTSTXT_LIBRARY" % (library_path(), e)
    ) from e
