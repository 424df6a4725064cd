package mockapnstest

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// SigningKey is a bundled test signing key the mock trusts: what a sender needs for provider-token
// authentication (for sideshow/apns2: token.Token{AuthKey: key.PrivateKey, KeyID: key.KeyID, TeamID: key.TeamID}).
// Test-only: it ships in the repository and must never sign anything real.
type SigningKey struct {
	TeamID     string            // iss of the provider token, e.g. TESTTEAM01
	KeyID      string            // kid of the provider token, e.g. TESTKEY001
	PrivateKey *ecdsa.PrivateKey // the P-256 key from the .p8 file
}

// keyEntry is one item of certs/keys.json.
type keyEntry struct {
	KeyID       string   `json:"key_id"`
	TeamID      string   `json:"team_id"`
	File        string   `json:"file"`
	Environment string   `json:"environment"`
	Topics      []string `json:"topics"`
}

// loadSigningKey reads keys.json in dir and returns the first key valid in the development environment
// (the mock's default) for every topic.
func loadSigningKey(dir string) (SigningKey, error) {
	path := filepath.Join(dir, "keys.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return SigningKey{}, fmt.Errorf("cannot read the test keys list %s: %v (set MOCKAPNS_CERTS_DIR to the repository's certs/ folder)", path, err)
	}
	var entries []keyEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return SigningKey{}, fmt.Errorf("%s is not a JSON list of keys: %v", path, err)
	}
	for _, entry := range entries {
		if (entry.Environment == "both" || entry.Environment == "development") && len(entry.Topics) == 0 {
			key, err := readP8(filepath.Join(dir, entry.File))
			if err != nil {
				return SigningKey{}, err
			}
			return SigningKey{TeamID: entry.TeamID, KeyID: entry.KeyID, PrivateKey: key}, nil
		}
	}
	return SigningKey{}, fmt.Errorf("%s lists no key for the development environment and all topics", path)
}

// readP8 parses an Apple .p8 file: a PEM "PRIVATE KEY" block holding a PKCS#8 P-256 key.
func readP8(path string) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the test signing key %s: %v", path, err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s is not a PEM file", path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s is not a PKCS#8 private key: %v", path, err)
	}
	key, ok := parsed.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s holds a %T, not an ECDSA (ES256) key", path, parsed)
	}
	return key, nil
}

// ProviderToken returns an ES256 provider token (JWT) issued at issuedAt: header {alg, kid}, claims {iss, iat},
// signed with the key, the signature as raw R||S (64 bytes) as JWS requires.
func (k SigningKey) ProviderToken(issuedAt time.Time) (string, error) {
	header, _ := json.Marshal(map[string]string{"alg": "ES256", "kid": k.KeyID})
	claims, _ := json.Marshal(map[string]interface{}{"iss": k.TeamID, "iat": issuedAt.Unix()})
	enc := base64.RawURLEncoding
	signingInput := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	digest := sha256.Sum256([]byte(signingInput))
	r, s, err := ecdsa.Sign(rand.Reader, k.PrivateKey, digest[:])
	if err != nil {
		return "", fmt.Errorf("signing the provider token failed: %v", err)
	}
	signature := make([]byte, 64)
	r.FillBytes(signature[:32])
	s.FillBytes(signature[32:])
	return signingInput + "." + enc.EncodeToString(signature), nil
}
