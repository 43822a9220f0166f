#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

/* Macros and variadic functions Swift cannot call, as functions. */

static inline int cssl_ctx_set_min_tls12(SSL_CTX *context) {
  return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

static inline long cssl_ctx_set_mode(SSL_CTX *context) {
  return SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE
                                       | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                                       | SSL_MODE_RELEASE_BUFFERS);
}

static inline uint64_t cssl_ctx_set_options(SSL_CTX *context) {
  return SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION
                                          | SSL_OP_NO_COMPRESSION);
}

static inline long cssl_ctx_disable_session_cache(SSL_CTX *context) {
  return SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
}

static inline EVP_PKEY *cssl_generate_p256_key(void) { return EVP_EC_gen("P-256"); }

static inline long cssl_bio_contents(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

static inline int cssl_set_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}
