#ifndef MOCKAPNS_COPENSSL_SHIM_TLS_H
#define MOCKAPNS_COPENSSL_SHIM_TLS_H
#include <openssl/ssl.h>
#include <openssl/err.h>

static inline long copenssl_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long copenssl_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline uint64_t copenssl_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t copenssl_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t copenssl_SSL_OP_ALL(void) { return SSL_OP_ALL; }
static inline long copenssl_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline long copenssl_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline long copenssl_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline int copenssl_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
#endif
