// Package mockapnstest starts the mockapns binary (a mock Apple Push Notification service) for one Go test and
// asks its control API what it received, so a test can check a Go APNs sender end to end over real HTTP/2 + TLS:
//
//	mock := mockapnstest.Start(t)               // a free port, stopped by t.Cleanup
//	client := mock.Client()                     // HTTP/2, trusting the mock's test CA
//	// … point the sender at mock.URL, authorize with "bearer "+mock.Token(), send …
//	mock.Expect(t, mockapnstest.Filter{Topic: "com.example.app", Status: 200})
//
// The binary decides every answer; the kit only starts it, reads its ready file and calls its control API.
package mockapnstest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// How long Start waits for the ready file and Stop for a SIGTERM'd server; variables so the kit's own tests
// can shorten them.
var (
	readyTimeout = 60 * time.Second
	stopTimeout  = 10 * time.Second
)

// Mock is one running mockapns server, started by Start for a test and stopped when the test ends.
// Its methods report control-API failures through the test that started it (t.Fatalf), so call them from
// that test's goroutine.
type Mock struct {
	// URL is the APNs endpoint, e.g. https://127.0.0.1:40123: POST /3/device/<token> there over HTTP/2.
	URL string
	// ControlURL is the control plane, e.g. http://127.0.0.1:40124 (its OpenAPI document: GET /api/v1/openapi.json).
	ControlURL string
	// CAFile is the PEM file of the test CA that signed the server's certificate.
	CAFile string
	// Key is the bundled test signing key the mock trusts.
	Key SigningKey

	tb      testing.TB
	caPEM   []byte
	cmd     *exec.Cmd
	exited  chan struct{}
	output  *tailBuffer
	control *http.Client

	mu          sync.Mutex
	token       string
	tokenMinted time.Time
}

// readyFile is what `mockapns serve --ready-file` writes once it listens.
type readyFile struct {
	APNsURL    string `json:"apns_url"`
	ControlURL string `json:"control_url"`
	CAFile     string `json:"ca_file"`
}

// Start runs `mockapns serve` on a free port for this test and waits until it is ready; t.Cleanup stops it.
// The binary is $MOCKAPNS_BIN, else mockapns on PATH; the test credentials are found the way the binary finds
// them ($MOCKAPNS_CERTS_DIR, else certs/ beside or above the binary). Anything that prevents a start fails the
// test with what went wrong and what to do.
func Start(t testing.TB) *Mock {
	t.Helper()
	m, err := start(t)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	return m
}

func start(t testing.TB) (*Mock, error) {
	bin, err := findBinary()
	if err != nil {
		return nil, err
	}
	candidates := certsCandidates(bin)
	certsDir, searched := findCerts(candidates)

	readyPath := filepath.Join(t.TempDir(), "ready.json")
	m := &Mock{tb: t, exited: make(chan struct{}), output: &tailBuffer{limit: 16 << 10}}
	// --control-port 0 too, so a MOCKAPNS_CONTROL_PORT in the environment cannot make parallel mocks collide.
	m.cmd = exec.Command(bin, "serve", "--port", "0", "--control-port", "0", "--ready-file", readyPath, "--quiet")
	m.cmd.Stdout, m.cmd.Stderr = m.output, m.output
	m.cmd.Env = os.Environ()
	if certsDir != "" {
		m.cmd.Env = append(m.cmd.Env, "MOCKAPNS_CERTS_DIR="+certsDir)
	}
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run %s: %v", bin, err)
	}
	go func() { _ = m.cmd.Wait(); close(m.exited) }()
	t.Cleanup(m.stop)

	ready, err := m.waitReady(readyPath)
	if err != nil {
		return nil, err
	}
	m.URL, m.ControlURL = ready.APNsURL, ready.ControlURL
	m.control = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}

	m.CAFile = ready.CAFile
	if m.CAFile == "" && certsDir != "" {
		m.CAFile = filepath.Join(certsDir, "ca.pem")
	}
	if certsDir == "" && ready.CAFile != "" {
		certsDir, searched = findCerts(append(candidates, filepath.Dir(ready.CAFile)))
	}
	if certsDir == "" {
		return nil, fmt.Errorf("cannot find the test credentials (certs/keys.json); looked in %s. "+
			"Set MOCKAPNS_CERTS_DIR to the repository's certs/ folder", searched)
	}
	if m.caPEM, err = os.ReadFile(m.CAFile); err != nil {
		return nil, fmt.Errorf("cannot read the mock's CA certificate: %v", err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(m.caPEM) {
		return nil, fmt.Errorf("%s holds no PEM certificate", m.CAFile)
	}
	if m.Key, err = loadSigningKey(certsDir); err != nil {
		return nil, err
	}
	return m, nil
}

// waitReady polls for the ready file until it names both URLs, the server exits, or readyTimeout passes.
func (m *Mock) waitReady(path string) (readyFile, error) {
	deadline := time.Now().Add(readyTimeout)
	for {
		var ready readyFile
		if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &ready) == nil && ready.APNsURL != "" {
			if ready.ControlURL == "" {
				return ready, fmt.Errorf("the mock started without a control plane (is MOCKAPNS_NO_CONTROL set?); the kit needs it")
			}
			return ready, nil
		}
		select {
		case <-m.exited:
			return ready, fmt.Errorf("`%s` exited (%v) before it was ready; its output:\n%s",
				strings.Join(m.cmd.Args, " "), m.cmd.ProcessState, m.output.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			m.stop()
			return ready, fmt.Errorf("`%s` did not write its ready file within %v, so it was stopped; its output:\n%s",
				strings.Join(m.cmd.Args, " "), readyTimeout, m.output.String())
		}
	}
}

// stop sends SIGTERM and waits; a server that does not exit within stopTimeout is killed.
func (m *Mock) stop() {
	if m.control != nil {
		m.control.CloseIdleConnections()
	}
	select {
	case <-m.exited:
		return
	default:
	}
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
		if !m.cmd.ProcessState.Success() {
			m.tb.Logf("mockapnstest: the mock exited with %v on SIGTERM; its output:\n%s", m.cmd.ProcessState, m.output.String())
		}
	case <-time.After(stopTimeout):
		_ = m.cmd.Process.Kill()
		<-m.exited
		m.tb.Logf("mockapnstest: the mock did not stop within %v of SIGTERM and was killed", stopTimeout)
	}
}

// CertPool returns a new pool holding only the mock's test CA: the sender's one trusted root.
func (m *Mock) CertPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(m.caPEM)
	return pool
}

// TLSConfig returns a new TLS configuration for the mock: its CA as the only root, HTTP/2 offered by ALPN.
func (m *Mock) TLSConfig() *tls.Config {
	return &tls.Config{RootCAs: m.CertPool(), NextProtos: []string{"h2"}, MinVersion: tls.VersionTLS12}
}

// Client returns an HTTP/2 client that trusts the mock; its idle connections are closed when the test ends.
func (m *Mock) Client() *http.Client {
	transport := &http.Transport{TLSClientConfig: m.TLSConfig(), ForceAttemptHTTP2: true}
	m.tb.Cleanup(transport.CloseIdleConnections)
	return &http.Client{Transport: transport, Timeout: 30 * time.Second}
}

// Token returns a provider token (ES256 JWT) signed with the bundled test key, for the `authorization: bearer`
// header. The same token is returned for 30 minutes, as APNs wants (a new one more often than every 20 minutes
// is refused with TooManyProviderTokenUpdates).
func (m *Mock) Token() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.token == "" || time.Since(m.tokenMinted) > 30*time.Minute {
		now := time.Now()
		token, err := m.Key.ProviderToken(now)
		if err != nil {
			m.tb.Fatalf("mockapnstest: %v", err)
		}
		m.token, m.tokenMinted = token, now
	}
	return m.token
}

// tailBuffer keeps the last limit bytes written to it; safe for the two output-copying goroutines.
type tailBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if extra := b.buf.Len() - b.limit; extra > 0 {
		b.buf.Next(extra)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() == 0 {
		return "(nothing)"
	}
	return b.buf.String()
}
