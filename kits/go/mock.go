// Package mockapnstest starts a mock Apple Push Notification service (the mockapns binary, or its container image)
// for one Go test and asks its control API what it received, so a test can check a Go APNs sender end to end over
// real HTTP/2 + TLS:
//
//	mock := mockapnstest.Start(t)               // free ports, stopped by t.Cleanup
//	client := mock.Client()                     // HTTP/2, trusting the mock's CA
//	// … point the sender at mock.URL, authorize with "bearer "+mock.Token(), send …
//	mock.Expect(t, mockapnstest.Filter{Topic: "com.example.app", Status: 200})
//
// A sender with Apple's URLs hard-coded reaches the mock through mock.HTTPClient() of Start(t, WithAppleHosts()),
// and a Firebase sender (firebase-admin-go) through mock.FCMURL() and mock.HTTPClient() of Start(t, WithFCM()).
// The mock decides every answer; the kit only starts it, reads where it listens and calls its control API.
package mockapnstest

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// How long Start waits for the mock to be ready and Stop for a SIGTERM'd server; variables so the kit's own tests
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
	// HTTP1URL is the plain HTTP/1.1 APNs endpoint (no TLS), e.g. http://127.0.0.1:40125, in either mode.
	HTTP1URL string
	// ControlURL is the control plane, e.g. http://127.0.0.1:40124 (its OpenAPI document: GET /api/v1/openapi.json).
	ControlURL string
	// CAFile is the PEM file of the CA that signed the server's certificate.
	CAFile string
	// Key is the bundled test signing key the mock trusts.
	Key SigningKey
	// Image is the container image the mock runs from in container mode; "" when it runs a local binary.
	Image string
	// Container is the name of the mock's container in container mode (for `podman logs`); "" otherwise.
	Container string

	tb           testing.TB
	keyFile      string // the .p8 of Key
	caPEM        []byte
	server       server
	control      *http.Client
	controlToken string
	// applePorts maps Apple's ports (443, 2197, 2195, 2196) to where the mock listens for them; nil without
	// WithAppleHosts.
	applePorts map[int]int
	// fcm is where the FCM front door listens and what it trusts; nil without WithFCM.
	fcm *fcmFrontDoor

	mu          sync.Mutex
	token       string
	tokenMinted time.Time
}

// server is where the mock runs: a child process or a container.
type server interface {
	// ended is nil while the server runs, else an error saying how it ended, with the last lines it printed.
	ended() error
	// providerToken mints a provider token with the mock's own `mockapns token` for key, whose .p8 is at file.
	providerToken(key SigningKey, file string) (string, error)
	// stop stops the server and removes what it left (the container); safe to call more than once.
	stop()
}

// readyFile is what `mockapns serve --ready-file` writes once it listens; container mode makes the same from the
// ports the engine published.
type readyFile struct {
	APNsURL    string         `json:"apns_url"`
	ControlURL string         `json:"control_url"`
	HTTP1URL   string         `json:"http1_url"`
	CAFile     string         `json:"ca_file"`
	ApplePorts map[string]int `json:"apple_ports"`
	// With --fcm: the mock's own FCM port, Google's 443 → the port behind Google's names, a service-account file
	// the mock trusts and the CA the FCM ports chain to.
	FCMURL            string         `json:"fcm_url"`
	FCMPorts          map[string]int `json:"fcm_ports"`
	FCMServiceAccount string         `json:"fcm_service_account"`
	FCMCAFile         string         `json:"fcm_ca_file"`
}

// Start runs a mock for this test and waits until it is ready; t.Cleanup stops it (and removes its container).
//
// By default it runs `mockapns serve` on free ports: the binary is WithBinary's, else $MOCKAPNS_BIN, else mockapns
// on PATH; the test credentials are found the way the binary finds them ($MOCKAPNS_CERTS_DIR, else certs/ beside or
// above the binary). WithImage (or $MOCKAPNS_IMAGE) runs the image with podman or docker instead. Anything that
// prevents a start fails the test with what went wrong and what to do.
func Start(t testing.TB, options ...Option) *Mock {
	t.Helper()
	m, err := start(t, options)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	return m
}

func start(t testing.TB, options []Option) (*Mock, error) {
	c, err := newConfig(options)
	if err != nil {
		return nil, err
	}
	m := &Mock{tb: t, Image: c.image}
	var ready readyFile
	var certsDir string
	if c.image != "" {
		m.controlToken, err = randomHex(16)
		if err != nil {
			return nil, err
		}
		var container *containerServer
		container, ready, certsDir, err = startContainer(t, c, m.controlToken)
		if container != nil {
			m.server, m.Container = container, container.name
		}
	} else {
		// The child gets this environment, so a MOCKAPNS_CONTROL_TOKEN set for it is the one to send.
		m.controlToken = os.Getenv("MOCKAPNS_CONTROL_TOKEN")
		var process *processServer
		process, ready, certsDir, err = startProcess(t, c)
		if process != nil {
			m.server = process
		}
	}
	if err != nil {
		return nil, err
	}
	m.URL, m.HTTP1URL, m.ControlURL, m.CAFile = ready.APNsURL, ready.HTTP1URL, ready.ControlURL, ready.CAFile
	m.control = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
	t.Cleanup(m.control.CloseIdleConnections)
	if c.appleHosts {
		if m.applePorts, err = applePorts(ready.ApplePorts); err != nil {
			return nil, err
		}
	}
	if m.caPEM, err = os.ReadFile(m.CAFile); err != nil {
		return nil, fmt.Errorf("cannot read the mock's CA certificate: %v", err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(m.caPEM) {
		return nil, fmt.Errorf("%s holds no PEM certificate", m.CAFile)
	}
	if m.Key, m.keyFile, err = loadSigningKey(certsDir); err != nil {
		return nil, err
	}
	if c.fcm {
		if m.fcm, err = m.startFCM(ready, c.image != ""); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// applePorts reads the ready file's "apple_ports" ({"443": N, "2197": N, "2195": N, "2196": N}).
func applePorts(named map[string]int) (map[int]int, error) {
	ports := map[int]int{}
	for _, apple := range []int{443, 2197, 2195, 2196} {
		port, ok := named[strconv.Itoa(apple)]
		if !ok || port <= 0 {
			return nil, fmt.Errorf("the mock was started with Apple's host names, but its ready file maps no port for "+
				"Apple's %d (apple_ports: %v); this mockapns is too old for --apple-hosts: use a newer build", apple, named)
		}
		ports[apple] = port
	}
	return ports, nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("cannot read random bytes: %v", err)
	}
	return hex.EncodeToString(b), nil
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
// header, minted by the mock's own `mockapns token` (in container mode the image's, through the engine's exec). The
// same token is returned for 30 minutes, as APNs wants (a new one more often than every 20 minutes is refused with
// TooManyProviderTokenUpdates).
func (m *Mock) Token() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now := clock(); m.token == "" || now.Sub(m.tokenMinted) >= tokenReuse {
		token, err := m.server.providerToken(m.Key, m.keyFile)
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
