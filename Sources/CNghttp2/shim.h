#ifndef MOCKAPNS_CNGHTTP2_SHIM_H
#define MOCKAPNS_CNGHTTP2_SHIM_H
// nghttp2 1.52 (Debian bookworm). Only what Swift cannot import directly lives here.
#include <nghttp2/nghttp2.h>

/// The client connection preface ("PRI * HTTP/2.0...") as bytes; the C macro is a string literal.
static inline const char *cnghttp2_client_magic(void) { return NGHTTP2_CLIENT_MAGIC; }
static inline size_t cnghttp2_client_magic_len(void) { return NGHTTP2_CLIENT_MAGIC_LEN; }
#endif
