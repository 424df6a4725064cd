#ifndef MOCKAPNS_COPENSSL_SHIM_TLS_H
#define MOCKAPNS_COPENSSL_SHIM_TLS_H
// TLS side of OpenSSL 3 for the HTTP2 module: SSL_CTX / SSL and the macros Swift cannot import.
#include <openssl/ssl.h>
#include <openssl/err.h>
// copenssl_BIO_get_mem_data and copenssl_OPENSSL_free live in shim_crypto.h (shared by both modules).
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>

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
static inline long copenssl_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }
static inline long copenssl_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline int copenssl_SSL_VERIFY_NONE(void) { return SSL_VERIFY_NONE; }
static inline int copenssl_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int copenssl_TLS1_3_VERSION(void) { return TLS1_3_VERSION; }
static inline long copenssl_SSL_CTX_add0_chain_cert(SSL_CTX *ctx, X509 *x509) { return SSL_CTX_add0_chain_cert(ctx, x509); }
static inline long copenssl_SSL_CTX_set_read_ahead(SSL_CTX *ctx, long m) { return SSL_CTX_set_read_ahead(ctx, m); }
static inline long copenssl_BIO_set_mem_eof_return(BIO *b, long v) { return BIO_set_mem_eof_return(b, v); }
static inline size_t copenssl_BIO_pending(BIO *b) { return BIO_ctrl_pending(b); }
static inline int copenssl_BIO_reset(BIO *b) { return BIO_reset(b); }
static inline int copenssl_SSL_TLSEXT_ERR_OK(void) { return SSL_TLSEXT_ERR_OK; }
static inline int copenssl_SSL_TLSEXT_ERR_NOACK(void) { return SSL_TLSEXT_ERR_NOACK; }
static inline long copenssl_SSL_CTX_set_options(SSL_CTX *ctx, uint64_t op) { return (long)SSL_CTX_set_options(ctx, op); }
static inline long copenssl_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long m) { return SSL_CTX_set_session_cache_mode(ctx, m); }
static inline long copenssl_SSL_SESS_CACHE_SERVER(void) { return SSL_SESS_CACHE_SERVER; }
/// Writes the DER encoding of `cert` into a fresh OPENSSL_malloc'ed buffer; returns its length or -1.
static inline int copenssl_X509_to_DER(X509 *cert, unsigned char **out) { *out = NULL; return i2d_X509(cert, out); }
#endif
