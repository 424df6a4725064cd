#ifndef MOCKAPNS_COPENSSL_SHIM_H
#define MOCKAPNS_COPENSSL_SHIM_H
// OpenSSL 3 headers plus static inline wrappers for the macros Swift cannot import.
// Split by owner: shim_crypto.h (APNsCrypto: keys, ECDSA, X.509), shim_tls.h (HTTP2: SSL_CTX, SSL).
#include "shim_crypto.h"
#include "shim_tls.h"
#endif
