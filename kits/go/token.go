package mockapnstest

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// tokenReuse is how long Token hands out the same provider token (kits/spec/launch.json): APNs refuses a new one
// more often than every 20 minutes and one older than an hour.
const tokenReuse = 30 * time.Minute

// clock is the kit's time, for Token's reuse; a variable so the kit's own tests can move it.
var clock = time.Now

// keyEntry is one item of certs/keys.json.
type keyEntry struct {
	KeyID       string   `json:"key_id"`
	TeamID      string   `json:"team_id"`
	File        string   `json:"file"`
	Environment string   `json:"environment"`
	Topics      []string `json:"topics"`
}

// loadSigningKey reads keys.json in dir and returns the first key valid in the development environment
// (the mock's default) for every topic, and the path of its .p8 file.
func loadSigningKey(dir string) (SigningKey, string, error) {
	path := filepath.Join(dir, "keys.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return SigningKey{}, "", fmt.Errorf("cannot read the test keys list %s: %v (set MOCKAPNS_CERTS_DIR to the repository's certs/ folder)", path, err)
	}
	var entries []keyEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return SigningKey{}, "", fmt.Errorf("%s is not a JSON list of keys: %v", path, err)
	}
	for _, entry := range entries {
		if (entry.Environment == "both" || entry.Environment == "development") && len(entry.Topics) == 0 {
			file := filepath.Join(dir, entry.File)
			key, err := readP8(file)
			if err != nil {
				return SigningKey{}, "", err
			}
			return SigningKey{TeamID: entry.TeamID, KeyID: entry.KeyID, PrivateKey: key}, file, nil
		}
	}
	return SigningKey{}, "", fmt.Errorf("%s lists no key for the development environment and all topics", path)
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

// tokenArguments is `mockapns token` for key (its .p8 at file), as launch.json's provider_token has it.
func tokenArguments(key SigningKey, file string) []string {
	return []string{"token", "--key-file", key.TeamID + ":" + key.KeyID + ":" + file, "--json"}
}

// mintedToken reads the JSON `mockapns token --json` prints ({"token", "team_id", "key_id", "issued_at"}).
func mintedToken(command string, out []byte, err error) (string, error) {
	if err != nil {
		return "", fmt.Errorf("`%s` failed: %v: %s", command, err, strings.TrimSpace(string(out)))
	}
	var minted struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(out, &minted); err != nil || minted.Token == "" {
		return "", fmt.Errorf("`%s` printed no token JSON: %.200s", command, out)
	}
	return minted.Token, nil
}
