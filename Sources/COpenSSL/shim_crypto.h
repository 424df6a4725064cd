#ifndef MOCKAPNS_COPENSSL_SHIM_CRYPTO_H
#define MOCKAPNS_COPENSSL_SHIM_CRYPTO_H
// Owned by APNsCrypto: keys, ECDSA, X.509, HMAC. Only wrappers for macros Swift cannot import; no logic.
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/bn.h>
#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/conf.h>
#include <openssl/pkcs12.h>

/// EVP_EC_gen("P-256"): a fresh P-256 key pair (the macro expands to a variadic call).
static inline EVP_PKEY *copenssl_EVP_EC_gen_P256(void) { return EVP_EC_gen("P-256"); }

/// BIO_get_mem_data: pointer to and length of a memory BIO's contents.
static inline long copenssl_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

/// The PKCS#12 bag and PKCS#7 stacks (macros over OPENSSL_sk_*), for JavaTrustStore.
static inline STACK_OF(PKCS12_SAFEBAG) *copenssl_sk_PKCS12_SAFEBAG_new_null(void) { return sk_PKCS12_SAFEBAG_new_null(); }
static inline int copenssl_sk_PKCS12_SAFEBAG_push(STACK_OF(PKCS12_SAFEBAG) *bags, PKCS12_SAFEBAG *bag) {
    return sk_PKCS12_SAFEBAG_push(bags, bag);
}
static inline void copenssl_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *bags) {
    sk_PKCS12_SAFEBAG_pop_free(bags, PKCS12_SAFEBAG_free);
}
static inline void copenssl_sk_PKCS7_pop_free(STACK_OF(PKCS7) *safes) { sk_PKCS7_pop_free(safes, PKCS7_free); }

/// OPENSSL_free: releases memory OpenSSL allocated for the caller (e.g. ASN1_STRING_to_UTF8).
static inline void copenssl_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

/// STACK_OF(ASN1_TYPE) accessors, as returned by d2i_ASN1_SEQUENCE_ANY.
static inline int copenssl_sk_ASN1_TYPE_num(const STACK_OF(ASN1_TYPE) *sk) { return sk_ASN1_TYPE_num(sk); }
static inline ASN1_TYPE *copenssl_sk_ASN1_TYPE_value(const STACK_OF(ASN1_TYPE) *sk, int i) {
    return sk_ASN1_TYPE_value(sk, i);
}
static inline void copenssl_sk_ASN1_TYPE_pop_free(STACK_OF(ASN1_TYPE) *sk) { sk_ASN1_TYPE_pop_free(sk, ASN1_TYPE_free); }

#endif
