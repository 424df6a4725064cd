#!/usr/bin/env bash
# Regenerates every TEST-ONLY credential in this folder with the `openssl` command line alone.
# Never use these files in production: their private keys are committed to a public repository.
#
# Run from anywhere:  certs/generate.sh   (or `make certs`)
# The layout is fixed (same file names, subjects, extensions and validity every run); the keys and
# serial numbers are new each run. Running it twice is harmless: every file is rewritten.
set -euo pipefail

OUT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mockapns-certs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

command -v openssl >/dev/null || { echo "generate.sh: the openssl command is required" >&2; exit 1; }

CA_DAYS=7305      # ~20 years
LEAF_DAYS=3650    # ~10 years (real APNs client certificates last one year; tests want longevity)

# ---------------------------------------------------------------------------------------------
# One OpenSSL config holds every extension section used below.
# APNs extensions (see certs/README.md):
#   1.2.840.113635.100.6.3.1  development environment allowed  (ASN.1 NULL)
#   1.2.840.113635.100.6.3.2  production environment allowed   (ASN.1 NULL)
#   1.2.840.113635.100.6.3.6  topics: SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, ... }
# ---------------------------------------------------------------------------------------------
cat >"$WORK/openssl.cnf" <<'EOF'
[ req ]
distinguished_name = req_dn
prompt             = no
utf8               = yes
string_mask        = utf8only

[ req_dn ]
CN = unused

[ ca_ext ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash

[ server_ext ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature, keyEncipherment
extendedKeyUsage       = serverAuth
subjectAltName         = DNS:localhost, IP:127.0.0.1, IP:::1
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid

# Universal ("Sandbox & Production") certificate with three topics.
[ client_app_ext ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature, keyEncipherment
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.2 = ASN1:NULL
1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:app_topics

# Development-only certificate, same topics.
[ client_dev_only_ext ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature, keyEncipherment
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:app_topics

# "UID only": no topics extension, the subject UID is the single topic; both environments.
[ client_single_topic_ext ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature, keyEncipherment
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.2 = ASN1:NULL

# Universal certificate listing a topic for every push type that has one (the certificate/push-type grid).
[ client_all_topics_ext ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature, keyEncipherment
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.2 = ASN1:NULL
1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:all_topics

[ all_topics ]
topic1 = UTF8:com.example.all
kind1  = SEQUENCE:kind_app
topic2 = UTF8:com.example.all.voip
kind2  = SEQUENCE:kind_voip
topic3 = UTF8:com.example.all.complication
kind3  = SEQUENCE:kind_complication
topic4 = UTF8:com.example.all.pushkit.fileprovider
kind4  = SEQUENCE:kind_fileprovider
topic5 = UTF8:com.example.all.push-type.widgets
kind5  = SEQUENCE:kind_widgets
topic6 = UTF8:com.example.all.push-type.controls
kind6  = SEQUENCE:kind_controls
topic7 = UTF8:com.example.all.push-type.liveactivity
kind7  = SEQUENCE:kind_liveactivity
topic8 = UTF8:com.example.all.location-query
kind8  = SEQUENCE:kind_location
topic9 = UTF8:com.example.all.voip-ptt
kind9  = SEQUENCE:kind_pushtotalk

[ kind_fileprovider ]
kind = UTF8:fileprovider
[ kind_widgets ]
kind = UTF8:widgets
[ kind_controls ]
kind = UTF8:controls
[ kind_liveactivity ]
kind = UTF8:liveactivity
[ kind_location ]
kind = UTF8:location
[ kind_pushtotalk ]
kind = UTF8:pushtotalk

# MDM push certificate: the subject UID is the MDM topic (com.apple.mgmt.External.<UUID>); no topic list.
[ client_mdm_ext ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature, keyEncipherment
extendedKeyUsage         = clientAuth
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid
1.2.840.113635.100.6.3.1 = ASN1:NULL
1.2.840.113635.100.6.3.2 = ASN1:NULL

# Topic list, in order: each UTF8String topic is followed by a SEQUENCE holding its kind.
[ app_topics ]
topic1 = UTF8:com.example.app
kind1  = SEQUENCE:kind_app
topic2 = UTF8:com.example.app.voip
kind2  = SEQUENCE:kind_voip
topic3 = UTF8:com.example.app.complication
kind3  = SEQUENCE:kind_complication

[ kind_app ]
kind = UTF8:app
[ kind_voip ]
kind = UTF8:voip
[ kind_complication ]
kind = UTF8:complication
EOF

ec_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
rsa_key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null; }
serial() { echo "0x$(openssl rand -hex 16)"; }

# self_signed_ca KEY CERT SUBJECT
self_signed_ca() {
    openssl req -new -x509 -config "$WORK/openssl.cnf" -key "$1" -out "$2" -subj "$3" \
        -days "$CA_DAYS" -sha256 -set_serial "$(serial)" -extensions ca_ext
}

# leaf KEY CERT SUBJECT EXT_SECTION CA_CERT CA_KEY
leaf() {
    openssl req -new -config "$WORK/openssl.cnf" -key "$1" -subj "$3" -out "$WORK/leaf.csr"
    openssl x509 -req -in "$WORK/leaf.csr" -out "$2" -days "$LEAF_DAYS" -sha256 \
        -CA "$5" -CAkey "$6" -set_serial "$(serial)" \
        -extfile "$WORK/openssl.cnf" -extensions "$4" 2>/dev/null
}

cd "$WORK"

# Test CA: the only CA the mock server trusts for client certificates.
ec_key ca-key.pem
self_signed_ca ca-key.pem ca.pem "/O=MockAPNs Test/OU=TEST ONLY - NOT FOR PRODUCTION/CN=MockAPNs Test CA"

# Server certificate for localhost / 127.0.0.1 / ::1.
ec_key server-key.pem
leaf server-key.pem server.pem "/O=MockAPNs Test/CN=localhost" server_ext ca.pem ca-key.pem

# APNs client certificates (RSA 2048, as Apple issues them).
rsa_key client-app-key.pem
leaf client-app-key.pem client-app.pem \
    "/UID=com.example.app/CN=Apple Push Services: com.example.app/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_app_ext ca.pem ca-key.pem

rsa_key client-dev-only-key.pem
leaf client-dev-only-key.pem client-dev-only.pem \
    "/UID=com.example.app/CN=Apple Development IOS Push Services: com.example.app/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_dev_only_ext ca.pem ca-key.pem

rsa_key client-single-topic-key.pem
leaf client-single-topic-key.pem client-single-topic.pem \
    "/UID=com.example.single/CN=Apple Push Services: com.example.single/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_single_topic_ext ca.pem ca-key.pem

rsa_key client-all-topics-key.pem
leaf client-all-topics-key.pem client-all-topics.pem \
    "/UID=com.example.all/CN=Apple Push Services: com.example.all/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_all_topics_ext ca.pem ca-key.pem

rsa_key client-mdm-key.pem
leaf client-mdm-key.pem client-mdm.pem \
    "/UID=com.apple.mgmt.External.0c0ffee0-test/CN=APSP:0c0ffee0-test/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_mdm_ext ca.pem ca-key.pem

# Client certificate from a throwaway CA that nothing trusts. Both of that CA's files are kept
# (untrusted-ca.pem, untrusted-ca-key.pem) so a test can build a chain on purpose.
ec_key untrusted-ca-key.pem
self_signed_ca untrusted-ca-key.pem untrusted-ca.pem "/O=MockAPNs Untrusted/CN=MockAPNs Untrusted Test CA"
rsa_key client-untrusted-key.pem
leaf client-untrusted-key.pem client-untrusted.pem \
    "/UID=com.example.app/CN=Apple Push Services: com.example.app/OU=TESTTEAM01/O=Example Inc./C=US" \
    client_app_ext untrusted-ca.pem untrusted-ca-key.pem

# Provider-token signing keys (.p8 = PKCS#8 PEM, P-256), named as Apple names them.
for key_id in TESTKEY001 OTHERKEY01 DEVKEY0001 PRODKEY001 TOPICKEY01; do
    ec_key "AuthKey_${key_id}.p8"
done
cat >keys.json <<'EOF'
[
  {"key_id": "TESTKEY001", "team_id": "TESTTEAM01", "file": "AuthKey_TESTKEY001.p8", "environment": "both"},
  {"key_id": "OTHERKEY01", "team_id": "OTHERTEAM1", "file": "AuthKey_OTHERKEY01.p8", "environment": "both"},
  {"key_id": "DEVKEY0001", "team_id": "TESTTEAM01", "file": "AuthKey_DEVKEY0001.p8", "environment": "development"},
  {"key_id": "PRODKEY001", "team_id": "TESTTEAM01", "file": "AuthKey_PRODKEY001.p8", "environment": "production"},
  {"key_id": "TOPICKEY01", "team_id": "TESTTEAM01", "file": "AuthKey_TOPICKEY01.p8", "environment": "development", "topics": ["com.example.app"]}
]
EOF

# Sanity checks before anything replaces the committed files.
openssl verify -CAfile ca.pem server.pem client-app.pem client-dev-only.pem client-single-topic.pem \
    client-all-topics.pem client-mdm.pem >/dev/null
if openssl verify -CAfile ca.pem client-untrusted.pem >/dev/null 2>&1; then
    echo "generate.sh: client-untrusted.pem must not verify against ca.pem" >&2; exit 1
fi

FILES=(ca.pem ca-key.pem server.pem server-key.pem
       client-app.pem client-app-key.pem client-dev-only.pem client-dev-only-key.pem
       client-single-topic.pem client-single-topic-key.pem
       client-all-topics.pem client-all-topics-key.pem client-mdm.pem client-mdm-key.pem
       client-untrusted.pem client-untrusted-key.pem untrusted-ca.pem untrusted-ca-key.pem
       AuthKey_TESTKEY001.p8 AuthKey_OTHERKEY01.p8 AuthKey_DEVKEY0001.p8 AuthKey_PRODKEY001.p8 AuthKey_TOPICKEY01.p8
       keys.json)
chmod 0644 "${FILES[@]}"
cp "${FILES[@]}" "$OUT/"
echo "generate.sh: wrote ${#FILES[@]} files to $OUT"
