package mockapnstest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// findBinary returns the mockapns executable: explicit (WithBinary) when given, else $MOCKAPNS_BIN when set, else
// "mockapns" on PATH.
func findBinary(explicit string) (string, error) {
	source, bin := "WithBinary", explicit
	if bin == "" {
		source, bin = "MOCKAPNS_BIN", os.Getenv("MOCKAPNS_BIN")
	}
	if bin != "" {
		info, err := os.Stat(bin)
		switch {
		case err != nil:
			return "", fmt.Errorf("%s is %q, but there is no file there (%v); "+
				"build the binary (swift build) and point %s at .build/debug/mockapns", source, bin, err, source)
		case info.IsDir() || info.Mode()&0o111 == 0:
			return "", fmt.Errorf("%s is %q, which is not an executable file; point it at the mockapns binary", source, bin)
		}
		return filepath.Abs(bin)
	}
	bin, err := exec.LookPath("mockapns")
	if err != nil {
		return "", errors.New("cannot find the mockapns binary: MOCKAPNS_BIN is not set and there is no mockapns on PATH. " +
			"Either build it (swift build) and set MOCKAPNS_BIN=/path/to/.build/debug/mockapns (or put it on PATH), " +
			"or run the mock from its image: set MOCKAPNS_IMAGE=mockapns:latest (`make image` builds it; " +
			"podman or docker runs it)" + enginesOnPath())
	}
	return filepath.Abs(bin)
}

// certsCandidates lists where the bundled test credentials may be, in the order the binary itself looks
// (Sources/MockAPNs/Server/BundledCredentials.swift): $MOCKAPNS_CERTS_DIR, then certs/ beside the
// (symlink-resolved) binary and in each of the five folders above it, then the certs/ of the checkout this kit's
// source is in (kits/go/../../certs), as the binary falls back on the checkout it was built from.
func certsCandidates(bin string) []string {
	var candidates []string
	if env := os.Getenv("MOCKAPNS_CERTS_DIR"); env != "" {
		candidates = append(candidates, env)
	}
	if resolved, err := filepath.EvalSymlinks(bin); err == nil {
		bin = resolved
	}
	dir := filepath.Dir(bin)
	for i := 0; i < 6; i++ {
		candidates = append(candidates, filepath.Join(dir, "certs"))
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if _, source, _, ok := runtime.Caller(0); ok && filepath.IsAbs(source) {
		candidates = append(candidates, filepath.Join(filepath.Dir(source), "..", "..", "certs"))
	}
	return candidates
}

// findCerts returns the first candidate holding keys.json, or "" and the list of places searched.
func findCerts(candidates []string) (string, string) {
	for _, dir := range candidates {
		if _, err := os.Stat(filepath.Join(dir, "keys.json")); err == nil {
			return dir, ""
		}
	}
	return "", strings.Join(candidates, ", ")
}
